#pragma once
// What run_job follows while a runner works: the runner's event file as it grows (which task is
// in progress, since when), and the inputs it hands the runner one case at a time as those events
// allow (RunRequest::inputs_release_dir).
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "job.hpp"

namespace cugrade {

/// The ids of `job`'s tasks in the order the runner runs them: its checks, then its timings.
std::vector<std::string> task_ids(const Job& job);

/// Follows the runner's event file as it grows, remembering which task is in progress.
class EventFollower {
 public:
  using Clock = std::chrono::steady_clock;

  /// Follows the event file at `path` (which need not exist yet).
  explicit EventFollower(std::string path) : path_(std::move(path)) {}

  /// Reads events appended since the last call: whole lines only (one still being written is
  /// read next time), and never through a link the runner put in the file's place.
  void poll();
  /// The task started but not finished, if any, and when it started.
  const std::optional<std::pair<std::string, Clock::time_point>>& current() const { return current_; }
  /// Every event read so far, in order.
  const std::vector<Event>& events() const { return events_; }
  /// Since when the runner has been between tasks (after a done, before the next start).
  const std::optional<Clock::time_point>& idle_since() const { return idle_since_; }

 private:
  void take(Event event);
  static constexpr std::size_t kMostPerPoll = std::size_t{16} << 20;
  static constexpr std::size_t kLongestLine = std::size_t{1} << 20;
  std::string path_;
  off_t offset_ = 0;
  std::optional<std::pair<std::string, Clock::time_point>> current_;
  std::optional<Clock::time_point> idle_since_;
  std::set<std::string> started_;
  std::vector<Event> events_;
};

/// Hands a runner its tasks' inputs one case at a time (RunRequest::inputs_release_dir): the
/// job names each inputs file inside a folder of this runner's own, empty when it starts, and a
/// file appears there (a hard link to the real one, read-only in the runner's sandbox) only once
/// its task starts or the task before it ends.
class InputsRelease {
 public:
  /// Rewrites `job`'s inputs files into a fresh folder under `root`; does nothing with an empty root.
  InputsRelease(const std::filesystem::path& root, Job& job);
  /// Removes the folder.
  ~InputsRelease();
  InputsRelease(const InputsRelease&) = delete;
  InputsRelease& operator=(const InputsRelease&) = delete;

  /// The folder the runner reads its inputs in; empty when nothing is held back.
  const std::filesystem::path& dir() const { return dir_; }

  /// Releases what the events since the last call allow, in the job's order and one at a time:
  /// the first task's inputs once it starts, each later task's once the task before it ends (the
  /// runner starts it right after). Why not at a later task's start: the student's code can write
  /// events too, and starts forged for every task must not hand over their inputs.
  void follow(const std::vector<Event>& events);

 private:
  void rewrite(std::string& inputs_file);
  void release(std::size_t index);
  std::filesystem::path dir_;
  std::vector<std::string> order_;  ///< the tasks in the order the runner runs them
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> sources_;  ///< each task's file, and where shown
  std::size_t next_ = 0;  ///< the first task not released yet
  std::size_t seen_ = 0;  ///< events already followed
};

}  // namespace cugrade
