#pragma once
// From the times of one lecture table's rows to the columns the lectures print: rate, % of this
// GPU's measured ceiling, speedup over the previous row, and "Rate" (the CPU's time over the
// GPU's). Pure arithmetic: no GPU, testable from made-up samples.
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#include "graders/grader.hpp"

namespace cugrade {

/// One row as the run left it.
struct RowMeasurement {
  Work work;                           ///< the grader's work model for the row's step and size
  Outcome outcome = Outcome::not_run;  ///< passed when timed
  std::string message;                 ///< why not, otherwise
  std::optional<TimingStats> time;
};

/// The ceiling a table's "% of" column divides by: its key ("copy", ...; empty = none) and its
/// value in GB/s or TFLOP/s (0 when this GPU's calibration has not measured it).
struct ChosenCeiling {
  std::string key;
  double value = 0.0;
};

/// The ceiling for `choice` (by_unit: copy for a unit counting bytes, sgemm for flops, none
/// otherwise); value 0 without ceilings.
ChosenCeiling choose_ceiling(BenchCeiling choice, const std::string& rate_unit,
                             const std::optional<Ceilings>& ceilings);

/// The table: rows in the spec's order, each with its rate in the table's unit (the first row's
/// rate_unit_for), percent of the chosen ceiling (unset when it is not measured or the work has
/// nothing it counts), speedup over the previous row when both were timed, and cpu_ratio =
/// cpu_gold_ms / median when the gold was timed. Notes say why a column is empty.
/// `measurements` has one entry per row of `table`.
BenchTableResult tabulate(const BenchTable& table, const std::vector<RowMeasurement>& measurements,
                          const std::optional<Ceilings>& ceilings,
                          std::optional<double> cpu_gold_ms);

}  // namespace cugrade
