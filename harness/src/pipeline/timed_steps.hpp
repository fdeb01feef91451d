#pragma once
// Which performance targets are worth the GPU's time: a step with a failed case earns no
// performance points however fast it is (score.cpp), so it is not timed, and the report says why.
#include <filesystem>
#include <string>
#include <vector>

#include "job.hpp"
#include "report/grade_report.hpp"
#include "run/lockstep_timing.hpp"

namespace cugrade {

/// The indices of `tasks` whose step has no failed case in `cases`: the ones worth timing.
std::vector<std::size_t> passing_step_tasks(const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases);

/// Times (lock-step, time_targets) the tasks whose step has no failed case in `cases`; each other
/// task gets a wrong_answer outcome naming how many of its step's cases failed. `aids`: what
/// time_targets may use (its `only` is set here). One outcome per task, in order.
std::vector<TimingOutcome> time_passing_steps(ProcessRunner& processes, const RunRequest& student,
                                              const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases,
                                              const std::filesystem::path& reference_runner,
                                              const std::filesystem::path& reference_dir, TimingAids aids = {});

/// Sets aside the timing of each task whose step has a failed case in `cases` (one the
/// sanitizer's pass, run after the timing, failed): its outcome becomes a wrong_answer ("its timing
/// set aside: 1 of the 2 cases of step tiled failed, …") and its samples go; one never timed
/// (no phase) says "not timed" with the new count. The others are left as they are.
void set_aside_failed_steps(std::vector<TimingOutcome>& outcomes, const std::vector<TimeTask>& tasks,
                            const std::vector<CaseResult>& cases);

/// The longest the lock-step timing of `tasks` may go on without a fault (each target's start,
/// loading, warm-up, budget and outputs, at `task_timeout_s` per exchange), in seconds: how long
/// what waits for the timing to end may be held.
double timing_bound_s(const std::vector<TimeTask>& tasks, double task_timeout_s);

/// "timed naive in 4.2 s: reference start 0.8 s, reference baseline 0.4 s, …": where a target's time went.
std::string describe_phases(const std::string& step, const TimingOutcome& timed);

}  // namespace cugrade
