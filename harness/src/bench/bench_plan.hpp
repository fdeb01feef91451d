#pragma once
// Turns an assignment's `bench:` tables into the runner's job (one reference-only timing task per
// row, inputs written under the work folder) and what the harness keeps: each row's work model
// and each table's CPU gold time.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#include "bench/gold_timer.hpp"
#include "graders/grader.hpp"
#include "job.hpp"

namespace cugrade {

/// How the rows are sampled and whether the CPU gold is timed.
struct BenchPlanOptions {
  BenchSettings settings;
  bool cpu_rate = true;  ///< false: no table times its gold (tables may also say `rate: false`)
  GoldTiming gold;
  std::function<void(const std::string&)> progress;  ///< status lines; may be empty
};

/// One table as planned.
struct PlannedBenchTable {
  std::vector<std::string> task_ids;  ///< per row: its timing task, or "" when it has none
  std::vector<Work> works;            ///< per row: the grader's work model
  std::vector<std::string> problems;  ///< per row: why it has no task ("" when it has one)
  std::optional<double> cpu_gold_ms;
  std::vector<std::string> notes;     ///< why there is no Rate column, when there is none
};

/// The job and the harness's half of it.
struct BenchPlan {
  Job job;
  std::vector<PlannedBenchTable> tables;  ///< one per spec.bench table, in order
};

/// Generates each row's inputs with the grader (one seed per table, so rows whose inputs are the
/// same share one file), writes them under `work_dir`, times the gold on one core for tables with
/// `rate` (when options.cpu_rate), and makes one TimeTask per row: reference_only, the row's step
/// as reference_step, the table's params, no verification. A grader that cannot generate a row's
/// inputs (a size it does not accept) leaves that row without a task and says why.
BenchPlan plan_bench(const Spec& spec, const Grader& grader, const BenchPlanOptions& options,
                     const std::filesystem::path& work_dir);

}  // namespace cugrade
