#pragma once
// What every runner task shares: the event stream, the task's id, and the one way a task ends
// early (a fatal protocol problem, exit 2, or a CUDA error, exit 3).
#include <cuda_runtime.h>

#include <string>

#include "adapter.hpp"
#include "array_file.hpp"
#include "event_writer.hpp"

namespace cugrade::runner {

/// The runner's exit codes.
enum ExitCode : int { exit_ok = 0, exit_protocol = 2, exit_cuda = 3 };

/// Thrown after the event that explains it was written; caught once in main, which exits with
/// `code`. Why unwind rather than exit on the spot: buffers are released by their owners and
/// the exit code is chosen in one place.
struct RunnerExit {
  int code;
  bool context_survived = false;  ///< exit_cuda: the CUDA context still works (Event::context_survived)
};

/// Thrown after the fatal event of a check task this runner refuses before reading or calling
/// anything (a step it does not know, a side it does not hold); caught in main, which goes on
/// with the next task: the refusal is the task's alone, the runner's state is untouched.
struct TaskRefused {};

/// The task being run and where its events go.
/// Why this runner cannot call `adapter`'s `reference` side ("" when it can): a reference-only
/// step has no student function, the student's runner no reference, the reference runner no
/// student code.
std::string missing_side(const StepAdapter& adapter, bool reference);

class TaskContext {
 public:
  /// A context for task `task` (empty for runner-level events).
  TaskContext(EventWriter& events, std::string task) : events_(events), task_(std::move(task)) {}

  /// Emits {"kind": kind} for this task (start, ...).
  void emit(const std::string& kind);
  /// Emits any event, with this task's id filled in.
  void emit(Event event);
  /// Emits a fatal event with `message`, then throws RunnerExit{exit_protocol}.
  [[noreturn]] void fatal(const std::string& message);
  /// Emits a fatal event with `message`, then throws TaskRefused: this task cannot run in this
  /// runner, the next ones may.
  [[noreturn]] void refuse(const std::string& message);
  /// Emits a cuda_error event (call, error string, last kernel), then throws
  /// RunnerExit{exit_cuda}: a sticky error makes the context unusable, so the harness restarts
  /// a fresh runner for the remaining cases.
  [[noreturn]] void cuda_failure(const std::string& call, cudaError_t error);
  /// Does nothing on cudaSuccess; otherwise cuda_failure("runner: " + what, error).
  void check(cudaError_t error, const std::string& what);

  /// The arrays in `path` (written by the harness, or released by it once the task started: it
  /// waits up to 10 s for the file); fatal, naming `what`, when unreadable.
  ArraySet read_arrays(const std::string& path, const std::string& what);
  /// Writes `arrays` to `path` for the harness; fatal, naming `what`, when that fails.
  void write_arrays(const std::string& path, const ArraySet& arrays, const std::string& what);

  /// The adapter of `step`; fatal when this runner does not know it (refused, when `refusable`).
  const StepAdapter& find_step(const std::string& step, bool refusable = false);
  /// Calls the student's (or the reference's) entry point of `adapter` once, waits for all its
  /// work on every stream, and reports any CUDA error as "<entry>() → <CUDA call>". `marked`:
  /// a profiled call, whose kernels follow the runner's marker kernel (call_marker.hpp).
  void call_entry(const StepAdapter& adapter, bool reference, const Call& call, bool marked = false);
  /// Before a call: clears any stale CUDA error and the last kernel, so neither is blamed on it.
  void prepare_call();
  /// The middle of call_entry: only the call (what the timed region holds). Fatal when the
  /// student's side of a reference-only step (no student function) is asked for. `marked`: the
  /// marker kernel first, inside the profiler's range (call_marker.hpp).
  void invoke(const StepAdapter& adapter, bool reference, const Call& call, bool marked = false);
  /// The end of call_entry: waits for the device and reports any CUDA error of the call.
  void finish_call(const StepAdapter& adapter, bool reference);

 private:
  EventWriter& events_;
  std::string task_;
};

}  // namespace cugrade::runner
