#include "pipeline/reference_ahead.hpp"

#include <chrono>

#include "build/staging.hpp"
#include "diagnose/ncu_command.hpp"
#include "pipeline/build_for_check.hpp"
#include "pipeline/run_requests.hpp"
#include "pipeline/stage_progress.hpp"

namespace cugrade {
namespace fs = std::filesystem;

DiagnosisRequest diagnosis_request(const CheckContext& context, const CheckOptions& options, const RunRequest& run,
                                   const fs::path& reference_runner, const CasePlan& plan, const DeviceInfo& device) {
  DiagnosisRequest request;
  request.ncu = find_ncu(context.locations);
  request.student = run;
  request.reference_runner = reference_runner;
  request.work_dir = plan.layout.run.parent_path() / "diagnose";
  request.sources = plan.layout.run.parent_path() / std::string(staging_folder);  // where the build staged the files
  request.gpu = device.name;
  if (const auto it = run.environment.find("CUDA_VISIBLE_DEVICES"); it != run.environment.end())
    request.gpu += " #" + it->second;
  request.progress = options.progress;
  request.steps = options.diagnosed_steps;
  request.reference_steps_ahead = options.reference_steps_ahead;
  return request;
}

double take_reference_work_now(const CheckContext& context, const Spec& spec, const Grader& grader,
                               const CheckOptions& options, const fs::path& work_dir,
                               const std::set<std::string>& profiled_steps) {
  if (!context.baselines || !context.device || !context.device->present() || !options.performance ||
      options.backend == Backend::cpu || spec.performance.empty())
    return 0.0;
  const auto started = std::chrono::steady_clock::now();
  const CasePlan plan = plan_cases(spec, grader, {}, spec.performance, work_dir, context.materials.get());
  if (plan.job.timings.empty()) return 0.0;
  take_planned_baselines(context, spec, plan, true, options, *context.baselines);
  if (context.counters && options.diagnosis && !profiled_steps.empty()) {
    CheckOptions ahead = options;
    ahead.reference_steps_ahead = profiled_steps;
    const RunRequest run = student_run_request(spec, plan, {}, true, ahead);
    // A profile that fails keeps nothing: the first check that needs the counters profiles them.
    (void)profile_reference_ahead(context.processes,
                                  diagnosis_request(context, ahead, run, context.locations.reference_runner(spec.id, true),
                                                    plan, *context.device),
                                  plan.job.timings, *context.counters);
  }
  return seconds_since(started);
}

}  // namespace cugrade
