#pragma once
// The run stage: executes a Job in the sandboxed runner process and says how each task ended.
// A task that hangs, crashes or trips a sticky CUDA error is charged to that task alone; the
// tasks after it run again in a fresh runner, so one bad case never costs the others. A task the
// runner refuses (a fatal event, the runner going on) ends alone, in the same runner.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "job.hpp"
#include "process/process_runner.hpp"
#include "run/runner_words.hpp"

namespace cugrade {

/// The CPU runner's worker-thread count, set in its environment (harness/cpu/executor reads it).
inline constexpr const char* cpu_threads_variable = "CUGRADE_CPU_THREADS";

/// How to run a job.
struct RunRequest {
  std::filesystem::path runner;                    ///< the linked runner binary
  std::filesystem::path work_dir;                  ///< where job and event files are written
  Job job;                                         ///< events_file is set by run_job
  double task_timeout_s = 10.0;                    ///< per check task (timing tasks get 3× plus their budget)
  std::size_t output_limit_bytes = 65536;          ///< stdout+stderr of one runner process
  std::map<std::string, std::string> environment;  ///< the runner's whole environment
  /// Run inside the sandbox (process/sandbox.hpp): `work_dir` is the only writable folder, the
  /// runner binary and `read_only` (the inputs) are visible read-only, nothing else of ours.
  bool sandboxed = false;
  std::vector<std::filesystem::path> read_only = {};  ///< folders the runner reads (inputs)
  bool gpu = false;                                ///< the sandbox binds the NVIDIA devices
  /// CPU backend: host memory the runner's data may take (RLIMIT_AS, with what its worker
  /// threads reserve added); 0 = no limit (a CUDA runner: the driver maps huge ranges).
  std::uint64_t host_memory_bytes = 0;
  /// A program the runner runs under, with its options ({"compute-sanitizer", "--tool",
  /// "memcheck"}): the command is wrapper + runner + job. Empty: the runner alone.
  std::vector<std::string> wrapper = {};
  /// How long a runner may stay between two tasks, or after its last, before it is ended (a
  /// wrapper that slows the runner down needs more).
  double idle_grace_s = 1.0;
  /// A file in `work_dir` the runner waits for before its first case (runtime/start_gate.hpp),
  /// created by whoever started processes beside it; empty: none. A request for another runner
  /// (the reference's) drops it.
  std::filesystem::path start_gate = {};
  /// Where each runner's case inputs are handed over one case at a time (empty: the inputs are
  /// where the job names them, all readable from the start). A folder outside `work_dir`, not
  /// in `read_only`: run_job makes a folder of its own in it per runner, shows it to the runner
  /// read-only, and links a case's inputs file there only when the case starts (the first) or
  /// the case before it ends (the others), so that code running before a case cannot see its
  /// inputs.
  std::filesystem::path inputs_release_dir = {};
  /// How long a runner may take from its start to its first event (its first case's start): the
  /// CUDA context's creation and the program's own constructors, so work before the first case
  /// is bounded. Three times as long under a wrapper; a start gate adds its own wait.
  double startup_timeout_s = 10.0;
};

/// The sandbox of one runner process of `request` (its folders, the GPU when asked for).
SandboxSpec runner_sandbox(const RunRequest& request);

/// The address space a CPU runner with `host_memory_bytes` of data may map: its data plus, per
/// worker thread (cpu_threads_variable in `environment`, else one per core), the thread's stack,
/// its malloc arena and its pool of fiber stacks.
std::uint64_t cpu_runner_address_space(std::uint64_t host_memory_bytes,
                                       const std::map<std::string, std::string>& environment);

/// How one task ended, as far as the process is concerned (the verdict comes from the check).
struct TaskStatus {
  Outcome outcome = Outcome::not_run;  ///< passed = it ran to its end; else why not
  std::string message;                 ///< for the student
  double seconds = 0.0;
  Event samples;                       ///< timing tasks: the samples event
  bool fatal = false;                  ///< ended by a `fatal` event of the runner (evidence only)
  /// Never run: an earlier case of its step hung, or the task it repeats did not finish.
  bool skipped = false;
  /// Check tasks on the GPU: whether the call's kernels used shared memory ("yes", "no"; "" unknown).
  std::string shared_memory = {};
  /// Check tasks: array_digest of each input after the call, from the task's first done event.
  std::map<std::string, std::string> input_digests = {};
  /// Check tasks: the most threads one launch of the call had (the done event's; 0 unknown).
  long long launched_threads = 0;
  /// Check tasks: why the call's result is not a kernel's work (runtime/host_work.hpp), from any
  /// done event of the task, not only the first: a done the submission wrote itself before the
  /// runner's own cannot hide the runner's evidence. "" none.
  std::string host_work = {};
  /// An allocation the runner's GPU memory limit refused during the task, in words ("" none).
  std::string memory_refused = {};
  /// cuda_error: the runtime refused a call (a launch's shape, an allocation) and the context
  /// survived: no kernel ran wrong, so compute-sanitizer has nothing to add.
  bool call_refused = false;
};

/// How the whole job went.
struct RunOutcome {
  std::map<std::string, TaskStatus> tasks;  ///< by task id; every task of the job is present
  std::string output_excerpt;               ///< the start of what the student's code printed
  int runner_processes = 0;                 ///< how many runner processes it took
  /// Under a wrapper (RunRequest::wrapper), each runner process's whole stdout, in order (up to
  /// the output limit): where compute-sanitizer prints its reports. Empty otherwise.
  std::vector<std::string> process_outputs = {};
};

/// Runs every task of `request.job`, restarting the runner after a failed task.
RunOutcome run_job(ProcessRunner& processes, const RunRequest& request);

/// The runner's environment: scrubbed, with CUDA's kernels loaded eagerly (before timing, not
/// inside the first sample), and CUGRADE_KEEP_ALLOCATIONS when set (runtime/allocation_wraps.hpp).
std::map<std::string, std::string> runner_environment();

}  // namespace cugrade
