#pragma once
// What a check asks of its runners: the student's cases' request, the timing runners' request,
// the CPUs the timing keeps to, and whether the timing's runners may start ahead of it.
#include <sched.h>

#include <filesystem>

#include "pipeline/case_plan.hpp"
#include "pipeline/check_submission.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// False when CUGRADE_TIMING_AHEAD=0 asks for the timing runners and baselines to start only when
/// the timing does (a benchmark's side-by-side comparison, scripts/bench-timing-ahead.sh).
bool timing_ahead();

/// How the student's runner runs this check's cases: its folder, job, limits, sandbox and
/// environment (shared memory's start on both backends, the CPU backend's schedule, the user's).
RunRequest student_run_request(const Spec& spec, const CasePlan& plan, const std::filesystem::path& runner,
                               bool use_cuda, const CheckOptions& options);

/// The timing runners' request: the student's, in the timing folder.
RunRequest timing_run_request(const RunRequest& run, const CasePlan& plan);

/// The two CPUs this check's timing keeps to, its runners and the thread that drives them.
cpu_set_t check_timing_cpus(const CheckOptions& options);

}  // namespace cugrade
