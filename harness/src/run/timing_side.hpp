#pragma once
// One side's runner in lock-step timing (lockstep_timing.hpp): the process serving its side of
// every timed target of a check, how it is started, and the tasks each side serves. Shared by the
// lock-step session and the runners started ahead of it (early_runners.cpp).
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "job.hpp"
#include "process/interactive_process.hpp"
#include "process/process_runner.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// One runner serving one side, for every task of the check; restarted after a failure.
struct TimingSide {
  std::string label;  ///< "your runner", "the reference runner"
  std::unique_ptr<InteractiveProcess> process;
  std::filesystem::path events_file;
  std::vector<double> event_ms, wall_ms;  ///< of the task being timed
  std::optional<ProcessResult> ended;
  bool greeted = false;                ///< its "hello" read
  std::optional<std::size_t> loading;  ///< the task it was asked to load early, its answer not read yet
  bool alive() const { return process && !ended; }
};

/// Starts `runner --serve job` in `dir` for `side`, serving `tasks`, with the limits and sandbox
/// of `base`; `stem` names its job and events files (a fresh pair per start, so why a runner
/// stopped is read from its own events).
void start_side(TimingSide& side, ProcessRunner& processes, const RunRequest& base,
                const std::filesystem::path& runner, const std::filesystem::path& dir,
                const std::vector<TimeTask>& tasks, const std::string& stem);

/// The tasks as each side's runner serves them (reference's, student's): the reference's calling
/// the reference's step, the student's with no bounds of its own (they come from the reference's
/// side only).
std::pair<std::vector<TimeTask>, std::vector<TimeTask>> sides_tasks(const std::vector<TimeTask>& tasks);

/// Sends `command` to `side` and returns its reply within `timeout_s`, or nullopt when the side
/// stopped answering (a last word already written is still read).
std::optional<std::string> ask(TimingSide& side, const std::string& command, double timeout_s);

/// Why `side` stopped answering, for the target being timed: from its events file (a CUDA error,
/// with the GPU memory limit's refusal that came before it, a fatal refusal) and how its process ended (not started, output limit, `timed_out`, a signal,
/// an exit); ends the process first when it is still running.
TaskStatus why_stopped(TimingSide& side, bool timed_out, double timeout_s);

/// The `count` numbers after `word` in a runner's reply ("ran 0.125"), or nullopt when the reply
/// is not `word` followed by exactly `count` numbers.
std::optional<std::vector<double>> reply_numbers(const std::string& reply, const std::string& word, std::size_t count);

}  // namespace cugrade
