#include "pipeline/schedule_race.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>

namespace cugrade {
namespace fs = std::filesystem;

namespace {
bool finished(const RunOutcome& ran, const std::string& id) {
  const auto it = ran.tasks.find(id);
  return it != ran.tasks.end() && it->second.outcome == Outcome::passed;
}

std::optional<std::string> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

Job rerun_job(const Job& job, const RunOutcome& ran, const fs::path& dir) {
  Job rerun;
  for (const CheckTask& task : job.checks) {
    // Only what ran to its end is worth repeating: a crash or a hang already has its verdict,
    // and skipping it keeps the second run from paying for the same timeout twice.
    if (!finished(ran, task.id)) continue;
    CheckTask again = task;
    again.output_file = (dir / fs::path(task.output_file).filename()).string();
    again.readback_file = (dir / fs::path(task.readback_file).filename()).string();
    rerun.checks.push_back(std::move(again));
  }
  return rerun;
}

bool outputs_differ(const fs::path& first, const fs::path& second) {
  const auto a = read_bytes(first);
  const auto b = read_bytes(second);
  return a && b && *a != *b;
}

std::vector<std::string> schedule_dependent_tasks(const Job& first, const RunOutcome& first_ran,
                                                  const Job& second, const RunOutcome& second_ran) {
  std::vector<std::string> ids;
  for (const CheckTask& again : second.checks) {
    const auto original = std::ranges::find(first.checks, again.id, &CheckTask::id);
    if (original == first.checks.end()) continue;
    if (!finished(first_ran, again.id) || !finished(second_ran, again.id)) continue;
    if (outputs_differ(original->output_file, again.output_file)) ids.push_back(again.id);
  }
  return ids;
}

void mark_schedule_race(CaseResult& result) {
  if (result.outcome == Outcome::passed) {
    result.outcome = Outcome::wrong_answer;
    result.message = schedule_race_message;
  } else {
    result.message += result.message.empty() ? schedule_race_message
                                             : std::string(" — ") + schedule_race_message;
  }
}

std::size_t check_schedule_races(ProcessRunner& processes, const RunRequest& first, const RunOutcome& ran,
                                 std::vector<CaseResult>& cases) {
  RunRequest second = first;
  second.work_dir = first.work_dir / "reverse";
  // A folder of its own: the runner appends to its event file, and run_job names those files
  // by attempt, so a second run in the same folder would read the first run's events as its own.
  fs::create_directories(second.work_dir);
  second.job = rerun_job(first.job, ran, second.work_dir);
  if (second.job.checks.empty()) return 0;
  second.environment[schedule_variable] = "reverse";
  const RunOutcome reran = run_job(processes, second);
  std::size_t marked = 0;
  for (const std::string& id : schedule_dependent_tasks(first.job, ran, second.job, reran))
    for (CaseResult& c : cases)
      if (c.id == id) {
        mark_schedule_race(c);
        ++marked;
      }
  return marked;
}

}  // namespace cugrade
