#include "pipeline/timed_steps.hpp"

#include <fmt/format.h>

namespace cugrade {

std::vector<TimingOutcome> time_passing_steps(ProcessRunner& processes, const RunRequest& student,
                                              const std::vector<TimeTask>& tasks, const std::vector<CaseResult>& cases,
                                              const std::filesystem::path& reference_runner,
                                              const std::filesystem::path& reference_dir,
                                              BaselineCache* baselines) {
  std::vector<TimingOutcome> outcomes(tasks.size());
  std::vector<TimeTask> timed;
  std::vector<std::size_t> timed_index;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    std::size_t failed = 0, of = 0;
    for (const CaseResult& c : cases) {
      if (c.step != tasks[i].step) continue;
      ++of;
      if (c.outcome != Outcome::passed && is_student_outcome(c.outcome)) ++failed;
    }
    if (failed == 0) {
      timed.push_back(tasks[i]);
      timed_index.push_back(i);
      continue;
    }
    outcomes[i].status.outcome = Outcome::wrong_answer;
    outcomes[i].status.message = fmt::format("not timed: {} of the {} cases of step {} failed, and a step earns "
                                             "performance points only once every case passes",
                                             failed, of, tasks[i].step);
  }
  if (timed.empty()) return outcomes;
  std::vector<TimingOutcome> ran = time_targets(processes, student, timed, reference_runner, reference_dir, baselines);
  for (std::size_t k = 0; k < ran.size(); ++k) outcomes[timed_index[k]] = std::move(ran[k]);
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

}  // namespace cugrade
