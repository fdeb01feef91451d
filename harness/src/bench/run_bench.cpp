#include "bench/run_bench.hpp"

#include <stdlib.h>

#include <algorithm>

#include "bench/bench_table.hpp"
#include "core/work_dir.hpp"
#include "run/run_job.hpp"
#include "timing/timing_stats.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

void say(const BenchOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

/// Every row of every table marked as not timed, for `why`.
std::vector<BenchTableResult> untimed_tables(const Spec& spec, const Grader& grader,
                                             const BenchContext& context, Outcome outcome,
                                             const std::string& why) {
  std::vector<BenchTableResult> tables;
  for (const auto& table : spec.bench) {
    std::vector<RowMeasurement> rows;
    for (const auto& row : table.rows) {
      RowMeasurement untimed{{}, outcome, why, std::nullopt};
      try {  // the work model only names the table's unit here; a size it refuses names none
        untimed.work = grader.work(row.step, table.params);
      } catch (const std::exception&) {
      }
      rows.push_back(std::move(untimed));
    }
    tables.push_back(tabulate(table, rows, context.ceilings, std::nullopt));
  }
  return tables;
}

/// How one row ended: its samples, or why it has none.
RowMeasurement measured_row(const std::string& task_id, const std::string& problem,
                            const Work& work, const RunOutcome& ran) {
  RowMeasurement row{work, Outcome::harness_error, problem, std::nullopt};
  if (task_id.empty()) return row;  // the plan could not make a task: `problem` says why
  const TaskStatus& status = ran.tasks.at(task_id);
  row.outcome = status.outcome;
  row.message = status.message;
  // A reference's fault is cugrade's, never "the student's": say whose code failed.
  if (status.outcome != Outcome::passed)
    row.message = "the reference " + std::string(to_string(status.outcome)) + ": " + status.message;
  else
    row.time = timing_stats(status.samples.reference_ms, status.samples.reference_wall_ms);
  return row;
}

}  // namespace

BenchAssignment bench_assignment(const BenchContext& context, const Spec& spec,
                                 const Grader& grader, const BenchOptions& options) {
  BenchAssignment result;
  result.id = spec.id;
  result.title = spec.title;
  const fs::path work = make_work_dir(options.work_dir, "cugrade-bench-");

  // The reference runner is built with cugrade (harness/runtime/CMakeLists.txt): the
  // instructor's solutions and the runner, no student code.
  const fs::path runner = context.locations.reference_runner(spec.id, true);
  std::error_code ec;
  if (!fs::is_regular_file(runner, ec)) {
    result.problem = "the reference runner " + runner.string() + " is not built (build the target `runners`)";
    result.tables =
        untimed_tables(spec, grader, context, Outcome::not_run, "not run: the reference runner is not built");
  } else {
    BenchPlanOptions plan_options{options.settings, options.cpu_rate, GoldTiming{}, options.progress};
    const BenchPlan plan = plan_bench(spec, grader, plan_options, work);
    say(options, spec.id + ": timing " + std::to_string(plan.job.timings.size()) +
                     " reference kernels on the GPU ...");
    const RunRequest run{runner, work, plan.job, spec.limits.run_timeout_s,
                         spec.limits.output_limit_bytes, runner_environment()};
    const RunOutcome ran = run_job(context.processes, run);
    for (std::size_t t = 0; t < spec.bench.size(); ++t) {
      const PlannedBenchTable& planned = plan.tables[t];
      std::vector<RowMeasurement> rows;
      for (std::size_t r = 0; r < planned.task_ids.size(); ++r)
        rows.push_back(measured_row(planned.task_ids[r], planned.problems[r], planned.works[r], ran));
      BenchTableResult table = tabulate(spec.bench[t], rows, context.ceilings, planned.cpu_gold_ms);
      table.notes.insert(table.notes.end(), planned.notes.begin(), planned.notes.end());
      result.tables.push_back(std::move(table));
    }
  }
  if (!options.keep_work_dir && options.work_dir.empty()) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
  }
  return result;
}

}  // namespace cugrade
