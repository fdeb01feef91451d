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
                                              const std::filesystem::path& reference_dir,
                                              BaselineCache* baselines, EarlyRunners* early) {
  const std::vector<std::size_t> timed = passing_step_tasks(tasks, cases);
  std::vector<TimingOutcome> outcomes(tasks.size());
  if (!timed.empty())
    outcomes = time_targets(processes, student, tasks, reference_runner, reference_dir, {baselines, early, timed});
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (std::find(timed.begin(), timed.end(), i) != timed.end()) continue;
    const auto [failed, of] = failed_of(tasks[i].step, cases);
    outcomes[i].status.outcome = Outcome::wrong_answer;
    outcomes[i].status.message = fmt::format("not timed: {} of the {} cases of step {} failed, and a step earns "
                                             "performance points only once every case passes",
                                             failed, of, tasks[i].step);
  }
  return outcomes;
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

std::vector<std::string> describe_timings(const std::vector<TimeTask>& tasks, const std::vector<TimingOutcome>& timed) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < timed.size() && i < tasks.size(); ++i)
    if (!timed[i].phase_seconds.empty()) lines.push_back(describe_phases(tasks[i].step, timed[i]));
  return lines;
}

}  // namespace cugrade
