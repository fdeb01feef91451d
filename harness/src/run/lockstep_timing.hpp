#pragma once
// Graded timing in lock-step (design.md §4, §7): the student's runner and the reference runner,
// two sandboxed processes, serve one side each (runtime/serve_task.hpp) and take turns sample by
// sample, so drift hits both alike and no student code shares a process with the reference.
// What the student's runner says is only evidence:
//   - every timed call is bracketed by the harness's own clock (command sent → digest received),
//     so time spent outside the CUDA events, a forged event time or work left for later shows;
//   - every sample runs on inputs never seen before (rotated, and negated at random), so no
//     cache of earlier results passes;
//   - every sample's outputs are checked by a keyed digest against the reference's on the same
//     inputs, the key sent only after the call returned. A step of exact tolerance compares its
//     digests' exact part, which every element's value changes; any other step's last sample's
//     outputs are also compared in full (verdicts.cpp).
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "job.hpp"
#include "run/baseline_cache.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// What lock-step timing of one target gave.
struct TimingOutcome {
  TaskStatus status;  ///< passed: sampled to the end (verified or not); else why it stopped
  std::vector<double> student_ms, reference_ms;  ///< CUDA event times the runners reported
  /// The harness's clock around each sample, less the protocol's own cost (the reference's
  /// median of clock minus event time): what timing_stats checks the event times against.
  std::vector<double> student_wall_ms, reference_wall_ms;
  /// The reference's event times before the student's runner started, taking turns with a twin
  /// of itself: a baseline that no process of the student's can have disturbed, paying what
  /// taking turns with another process costs.
  std::vector<double> reference_alone_ms;
  bool verified = true;   ///< every sample's digest within the reference's bound
  std::string mismatch;   ///< when not: which sample, and by how much
  /// The last sample's outputs in full; empty for a step of exact tolerance (its digests compared
  /// every element of every sample).
  std::string student_output_file, reference_output_file;
  /// Where the time went, phase by phase ("reference start", "reference baseline", "your start",
  /// "warm-up", "sampling", "outputs"), in seconds: what `check` shows while it works.
  std::vector<std::pair<std::string, double>> phase_seconds;
};

struct TimingSide;  // one side's runner (lockstep_timing.cpp)

/// Both sides' runners, started before time_targets is called so that their start, and the
/// upload of a first target's inputs, overlap other work of the check. Runners never handed to
/// time_targets are ended with this.
struct EarlyRunners {
  EarlyRunners();
  ~EarlyRunners();
  EarlyRunners(EarlyRunners&&) noexcept;
  EarlyRunners& operator=(EarlyRunners&&) noexcept;
  /// Waits, at most `most_s` in all, until both runners have said hello (their CUDA contexts
  /// exist); one that did not is ended, for time_targets to start afresh. True when both did.
  bool await_up(double most_s);
  /// Asks both runners to load task `first`, waiting for neither. Loading is GPU work: not while a
  /// poisoned run goes on.
  void load(std::size_t first);
  std::unique_ptr<TimingSide> student, reference;
};

/// Starts both sides' runners now, as time_targets would with the same arguments; waits for
/// nothing and asks for no task. Only where no baseline is to be taken (baselines_kept): a
/// baseline is taken before any process of the student's starts. On an H100, another process's
/// context starting, or any work of it, clears the shared memory a poisoned run relies on; an
/// idle context does not. So a poisoned run started beside these waits at a start gate
/// (runtime/start_gate.hpp) opened once await_up returns, and load() comes after it.
EarlyRunners start_early_runners(ProcessRunner& processes, const RunRequest& student,
                                 const std::vector<TimeTask>& tasks, const std::filesystem::path& reference_runner,
                                 const std::filesystem::path& reference_dir);

/// Takes the baseline of each of `tasks` that `baselines` lacks, as time_targets would (the
/// reference beside its twin, in `reference_dir` and beside it), stores it there, and ends both
/// runners: for a time when the GPU has nothing else to do and no process of the student's can
/// use it (a lone check's build). A baseline that failed is not stored (time_targets tries
/// again, and says why). The seconds it took.
double take_baselines_ahead(ProcessRunner& processes, const RunRequest& student, const std::vector<TimeTask>& tasks,
                            const std::filesystem::path& reference_runner,
                            const std::filesystem::path& reference_dir, BaselineCache& baselines);

/// True when `baselines` holds a live baseline of each of `tasks` for `student`'s GPU and
/// `reference_runner`: time_targets would take none.
bool baselines_kept(const BaselineCache* baselines, const RunRequest& student, const std::vector<TimeTask>& tasks,
                    const std::filesystem::path& reference_runner);

/// What a time_targets call may use besides its tasks.
struct TimingAids {
  BaselineCache* baselines = nullptr;  ///< baselines kept between checks; null: each taken here
  EarlyRunners* early = nullptr;       ///< runners started ahead for these tasks; null: started here
  std::vector<std::size_t> only = {};  ///< the tasks to time, by index (empty: all); the others' outcomes stay empty
};

/// Times every task of `tasks` (or those `aids.only` names) in lock-step: the student's side in
/// `student.runner` (its folder, environment, sandbox and limits), the reference's in
/// `reference_runner` in `reference_dir`; both started through `processes`
/// (ProcessRunner::start) unless `aids.early` started them. With `aids.baselines`, a baseline
/// taken for the same target on the same GPU within their lifetime serves instead of a new one.
/// One outcome per task of `tasks`, in order.
std::vector<TimingOutcome> time_targets(ProcessRunner& processes, const RunRequest& student,
                                        const std::vector<TimeTask>& tasks,
                                        const std::filesystem::path& reference_runner,
                                        const std::filesystem::path& reference_dir, const TimingAids& aids = {});

/// How long a target is warmed up before its samples: this long, and at least this many rounds.
struct Warmup {
  double seconds = 0.0;
  std::size_t rounds = 1;
};

/// The warm-up of a target that is not the first a pair of timing runners serves: the GPU has
/// just been busy with both processes, so its clocks are up and their contexts warm; what is left
/// is the new kernel's first calls (a few rounds, 20 ms), never more than the target's own
/// `warmup_s`. On an H100 this left every step's time and ratio as the whole warm-up did
/// (docs/measurements.md); CUGRADE_FULL_WARMUP=1 gives every target its whole warm-up.
Warmup later_warmup(double warmup_s);


}  // namespace cugrade
