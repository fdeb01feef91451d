#pragma once
// What a check asks of its runners: the student's cases' request, the timing runners' request,
// the CPUs the timing keeps to, whether the timing's runners may start ahead of it, and whether
// the untimed runners' CUDA contexts get one hardware queue.
#include <sched.h>

#include <filesystem>

#include "pipeline/case_plan.hpp"
#include "pipeline/check_submission.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// False when CUGRADE_TIMING_AHEAD=0 asks for the timing runners and baselines to start only when
/// the timing does (a benchmark's side-by-side comparison, scripts/bench-setting.sh).
bool timing_ahead();

/// The CUDA variable that gives a context one hardware work queue (CUDA_DEVICE_MAX_CONNECTIONS=1).
/// On the CUDA backend the untimed runners (the cases, the sanitizer's, the profiler's) start with
/// it: such a context starts in about half the time, and several starting at once no longer queue
/// behind each other (docs/measurements.md). The timing's runners keep the driver's default, so
/// that code using several streams is timed as it runs anywhere else.
inline constexpr const char* one_queue_variable = "CUDA_DEVICE_MAX_CONNECTIONS";

/// False when CUGRADE_ONE_QUEUE=0 asks for the driver's default queues in every runner (a
/// benchmark's side-by-side comparison, scripts/bench-setting.sh).
bool one_queue();

/// How the student's runner runs this check's cases: its folder, job, limits, sandbox and
/// environment (shared memory's start on both backends, the CPU backend's schedule, one hardware
/// queue on the GPU, the user's).
RunRequest student_run_request(const Spec& spec, const CasePlan& plan, const std::filesystem::path& runner,
                               bool use_cuda, const CheckOptions& options);

/// The timing runners' request: the student's, in the timing folder, with the driver's default
/// queues.
RunRequest timing_run_request(const RunRequest& run, const CasePlan& plan);

/// The two CPUs this check's timing keeps to, its runners and the thread that drives them.
cpu_set_t check_timing_cpus(const CheckOptions& options);

}  // namespace cugrade
