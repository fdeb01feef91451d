#include "cluster/slurm_wait.hpp"

#include <chrono>
#include <functional>
#include <ostream>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "batch/student_record.hpp"
#include "cluster/slurm_commands.hpp"
#include "core/outcome.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

/// How often the result files and squeue are read: a shard takes minutes, a poll is cheap.
constexpr auto poll_interval = std::chrono::seconds(3);

std::string outcome_counts(const std::map<Outcome, std::size_t>& outcomes) {
  std::string text;
  for (const auto& [outcome, count] : outcomes) text += fmt::format("{}{} {}", text.empty() ? "" : " · ", to_string(outcome), count);
  return text;
}

/// Says once per task that Slurm holds it: a held task never starts, so the wait would not end.
void tell_held_once(const std::vector<QueuedTask>& queued, std::set<std::string>& told,
                    const std::function<void(const std::string&)>& note) {
  std::string jobs, reasons;
  for (const auto& task : held_tasks(queued)) {
    if (!told.insert(task.job).second) continue;
    jobs += (jobs.empty() ? "" : " ") + task.job;
    if (reasons.find(task.reason) == std::string::npos) reasons += (reasons.empty() ? "" : "; ") + task.reason;
  }
  if (jobs.empty()) return;
  note("Slurm holds " + jobs + " (" + reasons + "): held tasks never start; `scontrol release " + jobs +
       "` lets them run (a hold set by an administrator needs one to release it)");
}

}  // namespace

bool result_written_since(const fs::path& out, const std::string& student, fs::file_time_type before) {
  std::error_code ec;
  const auto written = fs::last_write_time(record_path(out, student), ec);
  return !ec && written != before;
}

Result<std::vector<std::string>> wait_for_class(ProcessRunner& processes, const SubmittedClass& submitted,
                                                ProgressStyle style, std::size_t columns, std::ostream& log) {
  std::vector<std::string> ids;
  for (const auto& [id, chunk] : submitted.arrays) ids.push_back(id);
  if (!submitted.collect_job.empty()) ids.push_back(submitted.collect_job);
  std::size_t total = 0;
  for (const auto& [shard, students] : submitted.to_grade) total += students.size();

  BatchProgress bar(log, style == ProgressStyle::bar ? ProgressStyle::bar : ProgressStyle::none, {}, columns);
  bar.planned(submitted.students, total);
  const auto note = [&](const std::string& line) {
    if (style == ProgressStyle::bar) bar.log(line);
    else if (style == ProgressStyle::lines) log << "cugrade: " << line << "\n" << std::flush;
  };
  std::set<std::string> written;
  std::set<std::string> told_held;
  std::set<std::size_t> shards_reported;
  std::map<std::size_t, std::map<Outcome, std::size_t>> outcomes_of;
  // Where each shard's task is: its array job and index.
  std::map<std::size_t, std::pair<std::string, std::size_t>> task_of;
  for (const auto& [id, chunk] : submitted.arrays)
    for (const std::size_t index : chunk.indices) task_of[chunk.base + index] = {id, index};
  const auto started = Clock::now();
  auto last_queue_line = started;
  auto last_squeue_error = started - std::chrono::hours(1);
  for (;;) {
    // squeue first: a result written after an empty queue is still seen by the last round below.
    auto queued = queued_tasks(processes, ids);
    const bool queue_known = queued.has_value();
    if (!queue_known && Clock::now() - last_squeue_error > std::chrono::minutes(1)) {
      note("cannot read the queue (" + queued.error().message + "); still waiting, the result files say what is done");
      last_squeue_error = Clock::now();
    }
    for (const auto& [shard, students] : submitted.to_grade) {
      std::size_t done = 0;
      std::map<Outcome, std::size_t>& shard_outcomes = outcomes_of[shard];
      for (const auto& [student, before] : students) {
        if (written.contains(student)) {
          ++done;
          continue;
        }
        if (!result_written_since(submitted.out, student, before)) continue;
        auto record = load_record(submitted.out, student);
        if (!record || !record->has_value()) continue;  // being replaced: the next round reads it
        written.insert(student);
        ++done;
        ++shard_outcomes[(**record).report.outcome];
        bar.finished(**record);
      }
      if (style == ProgressStyle::lines && done == students.size() && !shards_reported.contains(shard)) {
        shards_reported.insert(shard);
        log << fmt::format("cugrade: shard {}/{} done: {} graded ({}); {}/{} in all\n", shard, submitted.shards,
                           students.size(), outcome_counts(shard_outcomes), written.size(), total)
            << std::flush;
      } else if (style == ProgressStyle::lines && queue_known && !shards_reported.contains(shard) &&
                 task_of.contains(shard) && !task_listed(*queued, task_of[shard].first, task_of[shard].second)) {
        shards_reported.insert(shard);  // its task ended (or was cancelled) before all its results
        log << fmt::format("cugrade: shard {}/{}: its task ({}_{}) left the queue with {} of its {} students not graded\n",
                           shard, submitted.shards, task_of[shard].first, task_of[shard].second,
                           students.size() - done, students.size())
            << std::flush;
      }
    }
    if (queue_known && queued->empty()) break;
    if (queue_known) tell_held_once(*queued, told_held, note);
    if (style == ProgressStyle::lines && queue_known && Clock::now() - last_queue_line >= std::chrono::minutes(1)) {
      log << fmt::format("cugrade: waiting: {}/{} graded; in the queue: {}\n", written.size(), total, queue_summary(*queued))
          << std::flush;
      last_queue_line = Clock::now();
    }
    std::this_thread::sleep_for(poll_interval);
  }
  bar.close();
  // A shard whose task left the queue with students unwritten: said here, listed by the collect.
  if (style != ProgressStyle::none)
    for (const auto& [shard, students] : submitted.to_grade) {
      std::size_t missing = 0;
      for (const auto& [student, before] : students) missing += written.contains(student) ? 0 : 1;
      if (missing && !shards_reported.contains(shard))
        log << fmt::format("cugrade: shard {}/{} ended with {} of its {} student{} not graded\n", shard, submitted.shards,
                           missing, students.size(), students.size() == 1 ? "" : "s");
    }
  return std::vector<std::string>(written.begin(), written.end());
}

}  // namespace cugrade
