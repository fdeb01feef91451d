#include "bench/run_bench.hpp"

#include <stdlib.h>

#include <algorithm>

#include "bench/bench_table.hpp"
#include "core/work_dir.hpp"
#include "build/build_submission_cuda.hpp"
#include "run/run_job.hpp"
#include "timing/timing_stats.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

void say(const BenchOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

/// The reference's sources: the files `cugrade selftest` grades as the "reference" entry.
std::vector<fs::path> reference_sources(const Locations& where, const std::string& id) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(where.references() / id, ec))
    if (entry.path().extension() == ".cu") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// The reference built into a runner with nvcc, exactly as a submission is (build/).
BuildOutput build_reference(const BenchContext& context, const Spec& spec,
                            const BenchOptions& options, const fs::path& work) {
  BuildRequest request;
  request.sources = reference_sources(context.locations, spec.id);
  request.assignment = spec.id;
  request.assignment_dir = spec.dir;
  request.work_dir = work;
  request.arch = !options.arch.empty() ? options.arch : context.device.arch();
  request.compiler = context.locations.nvcc;
  request.runner_library = context.locations.cuda_runner_library(spec.id);
  request.timeout_s = spec.limits.build_timeout_s;
  request.environment = scrubbed_environment();
  if (request.sources.empty()) {
    BuildOutput none;
    none.result.outcome = Outcome::harness_error;
    none.result.message = "reference/" + spec.id + "/ holds no .cu file";
    return none;
  }
  return build_submission_cuda(context.processes, request);
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

  say(options, spec.id + ": building the reference ...");
  const BuildOutput built = build_reference(context, spec, options, work);
  if (built.result.outcome != Outcome::passed) {
    std::string why = built.result.message;
    if (!built.result.diagnostics.empty()) why += " (" + built.result.diagnostics.front().message + ")";
    result.problem = "the reference did not build: " + why;
    result.tables =
        untimed_tables(spec, grader, context, Outcome::not_run, "not run: the reference did not build");
  } else {
    BenchPlanOptions plan_options{options.settings, options.cpu_rate, GoldTiming{}, options.progress};
    const BenchPlan plan = plan_bench(spec, grader, plan_options, work);
    say(options, spec.id + ": timing " + std::to_string(plan.job.timings.size()) +
                     " reference kernels on the GPU ...");
    const RunRequest run{built.runner, work, plan.job, spec.limits.run_timeout_s,
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
