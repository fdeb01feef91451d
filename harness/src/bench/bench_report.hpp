#pragma once
// What `cugrade bench` measured: each assignment's lecture tables (spec `bench:`) with this GPU's
// figures beside the lecture's. The JSON (bench_json.hpp) is the canonical record; the console
// and Markdown tables (bench_text.hpp) are rendered from the same structs.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "device/ceilings.hpp"
#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// One row: the reference of one step, timed alone on this GPU.
struct BenchRowResult {
  std::string step;
  std::string label;                   ///< the lecture's name for the kernel
  std::string lecture;                 ///< the lecture's figure as printed; empty when none
  Outcome outcome = Outcome::not_run;  ///< passed when it was timed
  std::string message;                 ///< why it was not timed; empty when it was
  std::optional<TimingStats> time;     ///< the reference's time (median, spread, samples)
  double rate = 0.0;                   ///< in the table's rate unit; 0 when not timed
  std::optional<double> percent_of_ceiling;  ///< of the table's ceiling, when measured
  std::optional<double> speedup;    ///< previous row's median / this one's; none for the first
  std::optional<double> cpu_ratio;  ///< the lectures' "Rate": the CPU gold's time / this time

  /// Field-by-field equality (exact for doubles).
  bool operator==(const BenchRowResult&) const = default;
};

/// One lecture table as measured.
struct BenchTableResult {
  std::string title;              ///< the spec's `table:` heading
  std::string lecture;            ///< whose figures the rows' `lecture` hold
  Params params;
  std::string rate_unit;          ///< "GB/s", "TFLOP/s" or the grader's domain unit
  std::string ceiling;            ///< "copy", "read", "sgemm", "dgemm"; empty: no % column
  double ceiling_value = 0.0;     ///< that ceiling in GB/s (copy, read) or TFLOP/s (s/dgemm)
  std::optional<double> cpu_gold_ms;  ///< the grader's gold on one CPU core, when timed
  std::vector<std::string> notes;     ///< what a reader must know (no ceiling, no CPU time)
  std::vector<BenchRowResult> rows;

  /// Field-by-field equality (exact for doubles).
  bool operator==(const BenchTableResult&) const = default;
};

/// One assignment's tables.
struct BenchAssignment {
  std::string id;
  std::string title;
  std::string problem;  ///< why none of its rows was timed (the reference did not build)
  std::vector<BenchTableResult> tables;

  /// Field-by-field equality.
  bool operator==(const BenchAssignment&) const = default;
};

/// How the rows were sampled (TimeTask's stopping rule), recorded with the figures.
struct BenchSettings {
  std::size_t min_samples = 10;
  std::size_t max_samples = 100;
  double target_rse = 0.005;  ///< stop at this relative standard error ...
  double budget_s = 2.0;      ///< ... or after this much sampling per row
  double warmup_s = 0.1;

  /// Field-by-field equality.
  bool operator==(const BenchSettings&) const = default;
};

/// A whole run of `cugrade bench`.
struct BenchReport {
  std::string cugrade_version;
  std::string started_at;  ///< ISO 8601 UTC
  Environment environment;
  std::optional<Ceilings> ceilings;  ///< this GPU's, from `cugrade calibrate`
  BenchSettings settings;
  std::vector<BenchAssignment> assignments;

  /// True when some row could not be timed (a fault of cugrade: the references are its own).
  bool has_failures() const;
};

/// "copy bandwidth", "read bandwidth", "cuBLAS SGEMM", "cuBLAS DGEMM" for a ceiling key.
std::string ceiling_label(const std::string& ceiling);

}  // namespace cugrade
