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
/// task gets a wrong_answer outcome naming how many of its step's cases failed. `early`: both
/// sides' runners started ahead for `tasks` (start_early_runners); may be null. One outcome per
/// task, in order.
std::vector<TimingOutcome> time_passing_steps(ProcessRunner& processes, const RunRequest& student,
                                              const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases,
                                              const std::filesystem::path& reference_runner,
                                              const std::filesystem::path& reference_dir,
                                              BaselineCache* baselines = nullptr, EarlyRunners* early = nullptr);

/// "timed naive in 4.2 s: reference start 0.8 s, reference baseline 0.4 s, …": where a target's time went.
std::string describe_phases(const std::string& step, const TimingOutcome& timed);

/// describe_phases of each of `tasks` timed as `timed` (in the same order) that went through any
/// phase: what `check` shows while it works and `selftest --verbose` under each line.
std::vector<std::string> describe_timings(const std::vector<TimeTask>& tasks, const std::vector<TimingOutcome>& timed);

}  // namespace cugrade
