#pragma once
// The protocol between the harness and the runner: a job file (JSON) the harness writes, and an
// event stream (JSON lines) the runner appends to. The runner is untrusted: the harness decides
// verdicts from the output files alone; events only say how far it got and what CUDA reported.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "body_reach.hpp"

namespace cugrade {

/// Type and shape of one output the runner must allocate, poison and write back.
struct OutputDecl {
  DType type = DType::f32;
  std::vector<std::int64_t> dims;
  bool operator==(const OutputDecl&) const = default;
};

/// A correctness task: call one entry point once on one input file.
struct CheckTask {
  std::string id;                             ///< the case id
  std::string step;
  bool reference = false;                     ///< call the reference instead of the student
  std::map<std::string, std::int64_t> params;
  std::string inputs_file;                    ///< written by the harness
  std::map<std::string, OutputDecl> outputs;
  /// Written by the runner: the outputs. Empty, with an empty readback_file: a profiled call
  /// (diagnose/), whose kernels alone count: nothing is copied back, digested or written.
  std::string output_file;
  std::string readback_file;                  ///< written by the runner: the inputs after the call
  /// The byte the GPU's shared memory starts with for this call, as two hex digits ("00"); empty:
  /// the environment's (fills.hpp). A second run of the cases rides in the first's runner so.
  std::string shared_poison;
  /// The task this one runs again; run_job drops it when that one did not finish (a crash or a
  /// hang is not paid for twice).
  std::string repeats;
};

/// A timing task. Graded timing runs it in lock-step (serve_task.hpp): the student's runner and
/// the reference runner each serve one side, sample by sample, on the parent's clock; the
/// reference runner's job sets `reference_only`. `cugrade bench` runs it as a plain task
/// (time_task.cpp) with `reference_only`: the reference timed alone, verified only when
/// `verify_inputs_file` is given.
struct TimeTask {
  std::string id;
  std::string step;                           ///< the student's step (unused when reference_only)
  std::string reference_step;
  bool reference_only = false;                ///< time the reference alone (any step, even one with no student function)
  std::map<std::string, std::int64_t> params;
  std::string inputs_file;                    ///< the inputs used for every timed sample
  std::string verify_inputs_file;             ///< a second input set for the final calls
  std::map<std::string, OutputDecl> outputs;
  std::string student_output_file;
  std::string reference_output_file;          ///< reference_only: written only after a verification call
  std::size_t min_samples = 10;
  std::size_t max_samples = 200;
  double target_rse = 0.005;                  ///< stop when the relative standard error is this low
  double budget_s = 3.0;                      ///< ... or this much time was spent sampling
  double warmup_s = 0.1;                      ///< warm-up: at least one call and this long
  std::int64_t flush_bytes = 0;               ///< L2 flush buffer; 0 = twice the L2 size
  double atol = 0.0, rtol = 0.0;              ///< the step's tolerance (the digests' bounds)
  std::vector<std::string> sign_free_inputs;  ///< inputs whose elements each sample flips by a keyed coin
  MovableBodies movable_bodies;               ///< bodies each sample moves within their reach (none: empty)
};

/// Everything the runner does in one process.
struct Job {
  std::string events_file;
  std::vector<CheckTask> checks;
  std::vector<TimeTask> timings;
};

/// Serialises a job as JSON text.
std::string job_to_json(const Job& job);
/// Parses job JSON; nullopt (and `error` set) when malformed.
std::optional<Job> job_from_json(const std::string& text, std::string* error = nullptr);

/// One line of the runner's event stream.
struct Event {
  std::string kind;     ///< "start", "done", "cuda_error", "samples", "fatal"
  std::string task;     ///< the task id it concerns
  std::string call;     ///< cuda_error: the CUDA call or the entry point that failed
  std::string error;    ///< cuda_error: the CUDA error string; fatal: the message
  std::string kernel;   ///< cuda_error: the last kernel launched, when known
  /// cuda_error: the student's runtime call that made the error by itself ("cudaMemcpy"); then
  /// `error` is that call's sentence, with its line and why (api_failure_text.hpp), and the
  /// report leads with it. "" when none did (a kernel's fault, a launch's refusal).
  std::string failed_call;
  double seconds = 0.0; ///< done: the task's wall time
  std::map<std::string, std::string> inputs;  ///< done (check tasks): array_digest of each input after the call
  /// done (check tasks, GPU): whether the call's kernels used shared memory ("yes", "no"); "" unknown.
  std::string shared_memory;
  /// done, cuda_error, fatal: an allocation the GPU memory limit refused during the task, in
  /// words (runtime/memory_ledger.hpp); "" none.
  std::string memory_refused;
  /// cuda_error: the CUDA context still worked after it: the runtime refused a call (a launch's
  /// shape, an allocation) and nothing ran wrong on the GPU; false after a fault in a kernel.
  bool context_survived = false;
  /// done (check tasks): the kernels the call launched (both backends; a profiled call's too).
  long launches = 0;
  /// done (check tasks): why the call's result is not a kernel's work (runtime/host_work.hpp), in
  /// words for the student; "" none. Evidence only: the step's spec decides what it costs.
  std::string host_work;
  /// done (check tasks): the most threads one launch of the call had (its blocks times a block's
  /// threads); 0 unknown or none. Only ever words for the student (what the grid covered).
  long long threads = 0;
  std::vector<double> student_ms, reference_ms;            ///< samples: event times (student_ms empty for a reference-only task)
  std::vector<double> student_wall_ms, reference_wall_ms;  ///< samples: host wall times
};

/// One JSON line, without the newline.
std::string event_to_line(const Event& event);
/// Parses one line; nullopt for anything malformed (a student may write to the stream too).
std::optional<Event> event_from_line(const std::string& line);
/// Every well-formed event in a file, in order; missing file = none.
std::vector<Event> read_events(const std::string& path);

}  // namespace cugrade
