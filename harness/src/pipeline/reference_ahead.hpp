#pragma once
// The reference's work that needs no student's file: its timing baselines and its Nsight Compute
// counters, taken while the first files build (nvcc leaves the GPU idle and no process of a
// student's can reach it), so that no check waits for them later with the GPU to itself: a
// batch's first builds, a self-test's.
#include <filesystem>
#include <set>
#include <string>

#include "diagnose/diagnose_steps.hpp"
#include "pipeline/check_submission.hpp"

namespace cugrade {

/// The diagnosis's request for a check of `plan` whose student runner runs as `run`: the profiles
/// in a folder beside the plan's, the GPU named as the counter cache's keys name it (its lane's
/// CUDA_VISIBLE_DEVICES too), the steps `options` lets it profile.
DiagnosisRequest diagnosis_request(const CheckContext& context, const CheckOptions& options, const RunRequest& run,
                                   const std::filesystem::path& reference_runner, const CasePlan& plan,
                                   const DeviceInfo& device);

/// The reference's timing baselines of `spec`'s performance targets, taken now into
/// `context.baselines`, and its counters of `profiled_steps` (steps checks will diagnose),
/// profiled now into `context.counters`, both on the GPU `options.runner_environment` names,
/// planned and run in `work_dir`. The seconds it took; 0 where nothing is timed (no cache, no GPU,
/// --no-performance, no target). Throws only for a fault of the harness (the plan's).
double take_reference_work_now(const CheckContext& context, const Spec& spec, const Grader& grader,
                               const CheckOptions& options, const std::filesystem::path& work_dir,
                               const std::set<std::string>& profiled_steps = {});

}  // namespace cugrade
