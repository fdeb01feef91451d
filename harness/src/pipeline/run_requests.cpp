#include "pipeline/run_requests.hpp"

#include <cstdlib>
#include <string>

#include "memory_ledger.hpp"
#include "pipeline/schedule_race.hpp"
#include "process/cpu_affinity.hpp"
#include "process/sandbox.hpp"

namespace cugrade {

namespace {

/// A speed setting, on unless `variable` is "0" (benchmarks turn it off to compare).
bool setting_on(const char* variable) {
  const char* value = std::getenv(variable);
  return !(value && std::string(value) == "0");
}

}  // namespace

bool timing_ahead() { return setting_on("CUGRADE_TIMING_AHEAD"); }

bool one_queue() { return setting_on("CUGRADE_ONE_QUEUE"); }

RunRequest student_run_request(const Spec& spec, const CasePlan& plan, const std::filesystem::path& runner,
                               bool use_cuda, const CheckOptions& options) {
  Job checks = plan.job;
  checks.timings.clear();  // timed in lock-step with the reference (time_targets), not here
  RunRequest run{runner, plan.layout.run, checks, spec.limits.run_timeout_s, spec.limits.output_limit_bytes,
                 runner_environment()};
  // The cases' inputs reach the runner one case at a time (run_job.hpp: inputs_release_dir), so
  // its code before a case (a constructor) sees none of them; the inputs folder stays hidden.
  run.inputs_release_dir = plan.layout.inputs.parent_path() / "released-inputs";
  run.gpu = use_cuda;
  if (!use_cuda) run.host_memory_bytes = spec.limits.host_memory_bytes;
  run.sandboxed = sandbox_status().works;  // without it the report says "not sealed" (notes)
  run.environment[poison_variable] = "ff";  // shared memory's start, on both backends (schedule_race.hpp)
  if (!use_cuda) run.environment[schedule_variable] = "forward";
  if (use_cuda && one_queue()) run.environment[one_queue_variable] = "1";
  // Every runner of the check, the reference's beside it included: the assignment's GPU memory.
  if (use_cuda) run.environment[runner::gpu_memory_limit_variable] = std::to_string(spec.limits.gpu_memory_bytes >> 20);
  for (const auto& [name, value] : options.runner_environment) run.environment[name] = value;
  return run;
}

RunRequest timing_run_request(const RunRequest& run, const CasePlan& plan) {
  RunRequest timing = run;
  timing.environment.erase(one_queue_variable);
  timing.inputs_release_dir.clear();  // the timing's own inputs, read by a runner started ahead
  timing.read_only = {plan.layout.inputs};
  timing.work_dir = plan.layout.timing;
  return timing;
}

cpu_set_t check_timing_cpus(const CheckOptions& options) {
  return timing_cpus(allowed_cpus(), options.lane, options.lanes);
}

}  // namespace cugrade
