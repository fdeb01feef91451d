#include "pipeline/timed_steps.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cugrade {

namespace {
/// How many of `step`'s cases failed, and how many it has.
std::pair<std::size_t, std::size_t> failed_of(const std::string& step, const std::vector<CaseResult>& cases) {
  std::size_t failed = 0, of = 0;
  for (const CaseResult& c : cases) {
    if (c.step != step) continue;
    ++of;
    if (c.outcome != Outcome::passed && is_student_outcome(c.outcome)) ++failed;
  }
  return {failed, of};
}

/// The outcome of a task whose step has a failed case: no time, and why ("<lead>: 2 of the 3
/// cases of step naive failed, …").
TimingOutcome without_time(const std::string& lead, const std::string& step, const std::vector<CaseResult>& cases) {
  const auto [failed, of] = failed_of(step, cases);
  TimingOutcome outcome;
  outcome.status.outcome = Outcome::wrong_answer;
  outcome.status.message = fmt::format("{}: {} of the {} cases of step {} failed, and a step earns "
                                       "performance points only once every case passes",
                                       lead, failed, of, step);
  return outcome;
}
}  // namespace

std::vector<std::size_t> passing_step_tasks(const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases) {
  std::vector<std::size_t> passing;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    if (failed_of(tasks[i].step, cases).first == 0) passing.push_back(i);
  return passing;
}

std::vector<TimingOutcome> time_passing_steps(ProcessRunner& processes, const RunRequest& student,
                                              const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases,
                                              const std::filesystem::path& reference_runner,
                                              const std::filesystem::path& reference_dir, TimingAids aids) {
  aids.only = passing_step_tasks(tasks, cases);
  std::vector<TimingOutcome> outcomes(tasks.size());
  if (!aids.only.empty()) outcomes = time_targets(processes, student, tasks, reference_runner, reference_dir, aids);
  for (std::size_t i = 0; i < tasks.size(); ++i)
    if (std::find(aids.only.begin(), aids.only.end(), i) == aids.only.end()) outcomes[i] = without_time("not timed", tasks[i].step, cases);
  return outcomes;
}

void set_aside_failed_steps(std::vector<TimingOutcome>& outcomes, const std::vector<TimeTask>& tasks,
                            const std::vector<CaseResult>& cases) {
  for (std::size_t i = 0; i < tasks.size() && i < outcomes.size(); ++i)
    if (failed_of(tasks[i].step, cases).first > 0)  // one never timed (no phase) keeps its lead, with the new count
      outcomes[i] = without_time(outcomes[i].phase_seconds.empty() ? "not timed" : "its timing set aside", tasks[i].step, cases);
}

double timing_bound_s(const std::vector<TimeTask>& tasks, double task_timeout_s) {
  double bound = 0.0;
  for (const TimeTask& task : tasks) bound += 10.0 + 4.0 * task_timeout_s + task.warmup_s + task.budget_s;
  return bound;
}

std::string describe_phases(const std::string& step, const TimingOutcome& timed) {
  double total = 0.0;
  std::string phases;
  for (const auto& [name, seconds] : timed.phase_seconds) {
    total += seconds;
    phases += fmt::format("{}{} {:.2f} s", phases.empty() ? "" : ", ", name, seconds);
  }
  return fmt::format("timed {} in {:.1f} s: {}", step, total, phases);
}

}  // namespace cugrade
