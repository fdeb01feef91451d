#pragma once
// The lock-step session behind time_targets and take_baselines_ahead (lockstep_timing.hpp):
// its runner protocol is defined in lockstep_session.cpp, its timing in lockstep_timing.cpp.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "run/lockstep_timing.hpp"
#include "run/timing_side.hpp"

namespace cugrade {

/// The session's mixing function (splitmix64: its increment, then its finaliser), a bijection:
/// each sample's variant and key come from a salt mixed with the sample's number.
std::uint64_t lockstep_mix(std::uint64_t x);

/// What the variant's number is mixed with for the key of its sign flips (prepare's last number).
inline constexpr std::uint64_t sign_flips_tweak = 0xD1B54A32D192ED03ULL;

/// Lock-step timing of a check's targets: one runner per side serves them all. The reference's
/// baselines come first, every one before any process of the student's is alive: the reference
/// taking turns with a twin of itself (a second reference runner), so that the baseline pays
/// what taking turns with another process costs (a reduction at 2^26 ints ran 12-34 % slower
/// that way than back to back on an H100) and differs from the reference's time beside the
/// student only by what the student's process did. Then each target in turn, both sides loading
/// it and taking turns sample by sample.
class LockstepSession {
 public:
  /// A session over `tasks` (time_targets' arguments); starts no runner.
  LockstepSession(ProcessRunner& processes, const RunRequest& student, const std::vector<TimeTask>& tasks,
                  const std::filesystem::path& reference_runner, const std::filesystem::path& reference_dir,
                  const TimingAids& aids);

  /// The baselines, then every selected target in lock-step; the runners ended. One outcome per
  /// task, in order.
  std::vector<TimingOutcome> run();

  /// The baselines only, into `baselines_` (take_baselines_ahead); the runners ended. How long
  /// it took, in seconds.
  double baselines_only();

 private:
  using Side = TimingSide;
  using Clock = std::chrono::steady_clock;

  static double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  }

  /// The baselines of the selected tasks, each kept (`baselines_`) or taken now; which there are.
  std::vector<bool> take_baselines();

  /// Starts those of `sides` whose runner is not alive (a fresh one after a failure), all at
  /// once, and takes the greeting of each not yet greeted (started here or early), timed as a
  /// phase of the current target ("reference start", "your start", or "start" for both) when any is. False
  /// (and the target's status set) when one failed.
  bool up(std::initializer_list<Side*> sides);

  /// The folder `side`'s runner works in, its only writable one. The twin's is its own: a sealed
  /// runner's folder is handed to a user of that runner's own, which would lock the reference out
  /// of a folder it shared.
  std::filesystem::path folder_of(const Side& side) const;

  /// Ends the runners of `sides`, asking each first, all before waiting for any (each one's
  /// context and buffers take a while to go).
  void quit(std::initializer_list<Side*> sides);

  /// Loads the current target into sides `a` and `b` at once (each reads and uploads its own
  /// inputs); a side asked early to load it (EarlyRunners) is only waited for, one asked early
  /// for another target answers that first. False (the target's status set by a side that
  /// failed) unless both did.
  bool load(Side& a, Side& b);

  /// Sends `to_a` to side `a` and `to_b` to side `b` (nothing where empty: asked already), then
  /// takes both replies, so that what the two do in answer overlaps. Both replies are taken
  /// before either is judged, so none is left to answer a later command. False (the target's
  /// status set by `b` first, then `a`) unless both said `expected`.
  bool exchange(Side& a, const std::string& to_a, Side& b, const std::string& to_b, const std::string& expected,
                double timeout_s);

  /// Runs one phase of the current target and records how long it took.
  template <typename Step>
  bool phase(const char* name, Step step) {
    const auto start = Clock::now();
    const bool ok = step();
    outcomes_[task_].phase_seconds.emplace_back(name, ms_since(start) / 1000.0);
    return ok;
  }

  /// Records why `side` stopped (a reply it should not have given, or none) as the current
  /// target's status and ends the runner (the next target starts a fresh one); always false.
  bool fail(Side& side, const std::optional<std::string>& reply, bool timed_out, const std::string& command);

  /// One call of one side on sample k; timed when `record`. False when the side failed.
  bool call(Side& side, std::uint64_t k, bool record, std::vector<double>* digest);

  /// One round: the student's side and the reference's on the same fresh sample, compared by digest.
  bool round(std::uint64_t k, bool record);

  /// The reference timed, taking turns with its twin, before any process of the student's is
  /// alive (its check runners have ended, and with them their GPU work): the baseline that shows
  /// whether the reference ran slower once the student's runner was there (judge_timing).
  bool time_baseline();

  /// A baseline kept from earlier processes (the cache) measured another reference process, and
  /// one process's speed can differ from another's by more than a disturbance would (reduce3 at
  /// 2^26: 430 to 575 µs on an H100 while each process paid its own cudaMalloc's cost, which timed
  /// calls no longer do: runtime/allocation_wraps.hpp; docs/measurements.md). Where such a
  /// baseline would say the student's runner slowed the reference (counted_reference),
  /// this reference process takes it again beside a twin, once the student's runner has ended,
  /// and that one counts. It is not kept: it speaks for this process only.
  void retake_kept_baselines_that_blame();

  /// True when task `index`'s baseline came from the cache and says the student's runner slowed
  /// the reference (what retake_kept_baselines_that_blame takes again).
  bool kept_baseline_blames(std::size_t index) const;

  /// Rounds until both sides are warm: the target's whole warm-up on the first target a pair of
  /// runners serves; on a later one, where the GPU has just been busy with the same two
  /// processes, only what a kernel's first calls need (later_warmup).
  bool warm_up();

  bool sample_until_done();

  /// The last sample's outputs in full, for the comparison of every element (verdicts.cpp); the
  /// two runners write theirs at once.
  bool write_outputs();

  /// The protocol's own cost on the clock so far: the median of the reference's wall time beyond
  /// its events (the reference's events are believed).
  double protocol_cost_ms() const;

  /// `wall_ms` with the protocol's cost `cost_ms` taken off each time (never below 0).
  static std::vector<double> less_protocol(std::vector<double> wall_ms, double cost_ms);

  /// The student's samples so far as they will be graded (settle, then timing_stats).
  std::vector<double> student_graded_ms() const;

  /// The current target's samples into its outcome. The protocol's own cost (two round trips,
  /// the digest) is what the reference's clock reads beyond its events; taken off both sides'
  /// clocks, it leaves what timing_stats compares.
  void settle();

  ProcessRunner& processes_;
  const RunRequest& student_request_;
  std::filesystem::path reference_runner_, reference_dir_;
  BaselineCache* baselines_;  ///< baselines kept between checks; may be null
  double timeout_s_;
  std::vector<TimeTask> reference_tasks_, student_tasks_;
  /// Per target, fresh each check: the samples' variants come from the first, the digests' keys
  /// from the second, so that nothing a runner is told before a call returns gives the key away.
  std::vector<std::uint64_t> variant_salts_, key_salts_;
  std::vector<TimingOutcome> outcomes_;
  std::vector<std::size_t> selected_;  ///< the tasks to time, by index
  std::vector<std::size_t> kept_;      ///< the tasks whose baseline came from the cache
  std::size_t task_ = 0;     ///< the target being worked on
  std::size_t starts_ = 0;   ///< runners started so far (each names its own files)
  std::uint64_t next_ = 1;
  bool warmed_ = false;  ///< the two runners have served a target together since either started
  Side reference_, twin_, student_;
};

}  // namespace cugrade
