#include "run/lockstep_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "process/interactive_process.hpp"
#include "run/timing_digests.hpp"
#include "run/timing_side.hpp"
#include "statistics.hpp"
#include "timing/timing_stats.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {
using Clock = std::chrono::steady_clock;
using Side = TimingSide;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The seed of sample k's variant and key (splitmix64): the runners learn each only when used.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// A fresh per-target salt so that two checks of the same file do not see the same sequence.
std::uint64_t fresh_salt() {
  return mix(static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
             reinterpret_cast<std::uintptr_t>(&fresh_salt));
}

/// False when CUGRADE_FULL_WARMUP=1 asks for every target's whole warm-up, later ones too (a
/// benchmark's side-by-side comparison, scripts/bench-warmup.sh).
bool full_warmup() {
  const char* value = std::getenv("CUGRADE_FULL_WARMUP");
  return value && std::string(value) == "1";
}

/// Lock-step timing of a check's targets: one runner per side serves them all. The reference's
/// baselines come first, every one before any process of the student's is alive: the reference
/// taking turns with a twin of itself (a second reference runner), so that the baseline pays
/// what taking turns with another process costs (a reduction at 2^26 ints ran 12-34 % slower
/// that way than back to back on an H100) and differs from the reference's time beside the
/// student only by what the student's process did. Then each target in turn, both sides loading
/// it and taking turns sample by sample.
class LockstepSession {
 public:
  LockstepSession(ProcessRunner& processes, const RunRequest& student, const std::vector<TimeTask>& tasks,
                  const fs::path& reference_runner, const fs::path& reference_dir, const TimingAids& aids)
      : processes_(processes), student_request_(student), reference_runner_(reference_runner),
        reference_dir_(reference_dir), baselines_(aids.baselines), timeout_s_(student.task_timeout_s),
        outcomes_(tasks.size()), selected_(aids.only) {
    std::tie(reference_tasks_, student_tasks_) = sides_tasks(tasks);
    for (std::size_t i = 0; i < tasks.size(); ++i) salts_.push_back(fresh_salt());
    if (selected_.empty())
      for (std::size_t i = 0; i < tasks.size(); ++i) selected_.push_back(i);
    if (aids.early && aids.early->student && aids.early->reference) {
      student_ = std::move(*aids.early->student);
      reference_ = std::move(*aids.early->reference);
      aids.early->student.reset();
      aids.early->reference.reset();
    }
    reference_.label = "the reference runner";
    twin_.label = "the reference's twin runner";
    student_.label = "your runner";
  }

  std::vector<TimingOutcome> run() {
    const std::vector<bool> baseline = take_baselines();
    quit({&twin_});  // before any process of the student's starts
    for (std::size_t index : selected_) {
      task_ = index;
      if (!baseline[task_]) continue;
      TimingOutcome& out = outcomes_[task_];
      const std::string stem = "timing-" + std::to_string(task_);
      // A step of exact tolerance has every timed call's every element compared by the digest's
      // exact part: its outputs need no writing and reading back in full.
      const bool in_full = !exact_tolerance(reference_tasks_[task_]);
      if (in_full) {
        out.student_output_file = (student_request_.work_dir / (stem + ".student.out")).string();
        out.reference_output_file = (reference_dir_ / (stem + ".reference.out")).string();
      }
      if (!up({&reference_, &student_})) continue;
      if (!phase("loading", [&] { return load(student_, reference_); }) ||
          !phase("warm-up", [&] { return warm_up(); }) || !phase("sampling", [&] { return sample_until_done(); }) ||
          (in_full && !phase("outputs", [&] { return write_outputs(); })))
        continue;
      outcomes_[task_].status.outcome = Outcome::passed;
      settle();
      warmed_ = true;
    }
    quit({&student_});
    retake_kept_baselines_that_blame();
    quit({&reference_, &twin_});
    return std::move(outcomes_);
  }

  /// The baselines only, into `baselines_` (take_baselines_ahead); the runners ended. How long
  /// it took, in seconds.
  double baselines_only() {
    const auto start = Clock::now();
    take_baselines();
    quit({&twin_, &reference_});
    return ms_since(start) / 1000.0;
  }

 private:
  /// The baselines of the selected tasks, each kept (`baselines_`) or taken now; which there are.
  std::vector<bool> take_baselines() {
    std::vector<bool> baseline(outcomes_.size(), false);
    for (std::size_t index : selected_) {
      task_ = index;
      TimingOutcome& out = outcomes_[task_];
      const std::string key = baseline_key(reference_runner_, student_request_.environment, reference_tasks_[task_]);
      if (auto kept = baselines_ ? baselines_->find(key) : std::nullopt) {
        out.reference_alone_ms = std::move(*kept);
        baseline[task_] = true;
        kept_.push_back(task_);
        continue;
      }
      baseline[task_] = up({&reference_, &twin_}) &&
                        phase("reference baseline", [&] { return load(twin_, reference_) && time_baseline(); });
      if (baseline[task_] && baselines_) baselines_->store(key, out.reference_alone_ms);
    }
    return baseline;
  }

  /// Starts those of `sides` whose runner is not alive (a fresh one after a failure), all at
  /// once, and takes the greeting of each not yet greeted (started here or early), timed as a
  /// phase of the current target ("reference start", "your start", or "start" for both) when any is. False
  /// (and the target's status set) when one failed.
  bool up(std::initializer_list<Side*> sides) {
    std::vector<Side*> greeting;
    for (Side* side : sides)
      if (!side->alive() || !side->greeted) greeting.push_back(side);
    if (greeting.empty()) return true;
    const bool yours = std::find(greeting.begin(), greeting.end(), &student_) != greeting.end();
    const char* name = !yours ? "reference start" : greeting.size() == 1 ? "your start" : "start";
    return phase(name, [&] {
      for (Side* side : greeting)
        if (!side->alive()) {
          if (side == &student_ || side == &reference_) warmed_ = false;  // a fresh process: cold again
          start_side(*side, processes_, student_request_,
                     side == &student_ ? student_request_.runner : reference_runner_, folder_of(*side),
                     side == &student_ ? student_tasks_ : reference_tasks_, fmt::format("timing-{}", starts_++));
        }
      // Every greeting is taken before any is judged, so none is left to answer a later command.
      std::vector<std::pair<std::optional<std::string>, bool>> replies;
      for (Side* side : greeting) {
        auto reply = side->process->receive(5.0 + timeout_s_);
        replies.emplace_back(std::move(reply), side->process->timed_out());
      }
      for (std::size_t i = 0; i < greeting.size(); ++i) {
        if (!replies[i].first || *replies[i].first != "hello")
          return fail(*greeting[i], replies[i].first, replies[i].second, "start");
        greeting[i]->greeted = true;
      }
      return true;
    });
  }

  /// The folder `side`'s runner works in, its only writable one. The twin's is its own: a sealed
  /// runner's folder is handed to a user of that runner's own, which would lock the reference out
  /// of a folder it shared.
  fs::path folder_of(const Side& side) const {
    if (&side == &student_) return student_request_.work_dir;
    if (&side == &reference_) return reference_dir_;
    fs::path twin = reference_dir_;
    twin += "-twin";
    fs::create_directories(twin);
    return twin;
  }

  /// Ends the runners of `sides`, asking each first, all before waiting for any (each one's
  /// context and buffers take a while to go).
  void quit(std::initializer_list<Side*> sides) {
    for (Side* side : sides)
      if (side->alive()) side->process->send("quit");
    for (Side* side : sides)
      if (side->alive()) side->ended = side->process->finish(1.0);
  }

  /// Loads the current target into sides `a` and `b` at once (each reads and uploads its own
  /// inputs); a side asked early to load it (EarlyRunners) is only waited for, one asked early
  /// for another target answers that first. False (the target's status set by a side that
  /// failed) unless both did.
  bool load(Side& a, Side& b) {
    const std::string command = "task " + std::to_string(task_);
    std::string to[2];
    Side* sides[2] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
      Side& side = *sides[i];
      side.event_ms.clear();
      side.wall_ms.clear();
      const std::optional<std::size_t> asked = std::exchange(side.loading, std::nullopt);
      if (asked == task_) continue;  // asked already: nothing to send
      if (asked) {
        const auto reply = side.process->receive(5.0 + timeout_s_);
        if (!reply || *reply != "loaded") return fail(side, reply, side.process->timed_out(), "task");
      }
      to[i] = command;
    }
    return exchange(a, to[0], b, to[1], "loaded", 5.0 + timeout_s_);
  }

  /// Sends `to_a` to side `a` and `to_b` to side `b` (nothing where empty: asked already), then
  /// takes both replies, so that what the two do in answer overlaps. Both replies are taken
  /// before either is judged, so none is left to answer a later command. False (the target's
  /// status set by `b` first, then `a`) unless both said `expected`.
  bool exchange(Side& a, const std::string& to_a, Side& b, const std::string& to_b, const std::string& expected,
                double timeout_s) {
    const bool sent_a = to_a.empty() || a.process->send(to_a);
    const bool sent_b = to_b.empty() || b.process->send(to_b);
    const auto reply_a = a.process->receive(sent_a ? timeout_s : 0.05);
    const bool a_timed_out = a.process->timed_out();
    const auto reply_b = b.process->receive(sent_b ? timeout_s : 0.05);
    const std::string& said = to_a.empty() ? to_b : to_a;
    const std::string word = said.empty() ? "task" : said.substr(0, said.find(' '));
    if (!reply_b || *reply_b != expected) return fail(b, reply_b, b.process->timed_out(), word);
    if (!reply_a || *reply_a != expected) return fail(a, reply_a, a_timed_out, word);
    return true;
  }

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
  bool fail(Side& side, const std::optional<std::string>& reply, bool timed_out, const std::string& command) {
    TaskStatus status;
    if (reply) {
      status.outcome = Outcome::protocol_error;
      status.message = "the runner's answer to '" + command + "' was not understood: \"" + reply->substr(0, 80) + "\"";
    } else {
      status = why_stopped(side, timed_out, timeout_s_);
    }
    if (!side.ended) side.ended = side.process->finish(0.0);
    if (&side != &student_) {  // the reference is ours: whatever stopped it is cugrade's fault
      status.message = side.label + " failed while timing: " + status.message;
      status.outcome = Outcome::harness_error;
    }
    outcomes_[task_].status = std::move(status);
    return false;
  }

  /// One call of one side on sample k; timed when `record`. False when the side failed.
  bool call(Side& side, std::uint64_t k, bool record, std::vector<double>* digest) {
    const std::uint64_t h = mix(salts_[task_] ^ k);
    // Negated or not at random, not by turns: no count of calls predicts the next outputs.
    const std::string prepare = fmt::format("prepare {} {} {}", k, h >> 8, (h >> 3) & 1);
    auto reply = ask(side, prepare, timeout_s_);
    if (!reply || *reply != "ready") return fail(side, reply, side.process->timed_out(), "prepare");
    const auto start = Clock::now();
    reply = ask(side, "run", timeout_s_);
    const auto ran = reply ? reply_numbers(*reply, "ran", 1) : std::nullopt;
    if (!ran) return fail(side, reply, side.process->timed_out(), "run");
    reply = ask(side, fmt::format("digest {}", mix(h)), timeout_s_);
    const double wall = ms_since(start);
    const auto values = reply ? reply_numbers(*reply, "digest", timing_digest_values) : std::nullopt;
    if (!values) return fail(side, reply, side.process->timed_out(), "digest");
    if (record) {
      side.event_ms.push_back(ran->front());
      side.wall_ms.push_back(wall);
    }
    if (digest) *digest = *values;
    return true;
  }

  /// One round: the student's side and the reference's on the same fresh sample, compared by digest.
  bool round(std::uint64_t k, bool record) {
    std::vector<double> ours, theirs;
    if (!call(student_, k, record, &ours) || !call(reference_, k, record, &theirs)) return false;
    std::string why;
    TimingOutcome& out = outcomes_[task_];
    if (out.verified && !replies_agree(ours, theirs, exact_tolerance(reference_tasks_[task_]), &why)) {
      out.verified = false;
      out.mismatch = fmt::format("timed call {}: {}", k, why);
    }
    return true;
  }

  /// The reference timed, taking turns with its twin, before any process of the student's is
  /// alive (its check runners have ended, and with them their GPU work): the baseline that shows
  /// whether the reference ran slower once the student's runner was there (judge_timing).
  bool time_baseline() {
    const TimeTask& task = reference_tasks_[task_];
    const auto start = Clock::now();
    do {
      if (!call(twin_, next_, false, nullptr) || !call(reference_, next_++, false, nullptr)) return false;
    } while (ms_since(start) < 1000.0 * task.warmup_s);
    const StoppingRule rule{std::min<std::size_t>(task.min_samples, 10), 10, task.target_rse, task.budget_s / 4};
    const auto sampling = Clock::now();
    while (!should_stop(reference_.event_ms, rule, ms_since(sampling) / 1000.0))
      if (!call(twin_, next_, false, nullptr) || !call(reference_, next_++, true, nullptr)) return false;
    outcomes_[task_].reference_alone_ms = std::move(reference_.event_ms);
    reference_.event_ms.clear();
    reference_.wall_ms.clear();
    return true;
  }

  /// A baseline kept from earlier processes (the cache) measured another reference process, and
  /// one process's speed can differ from another's by more than a disturbance would (reduce3 at
  /// 2^26: 430 to 575 µs on an H100 while each process paid its own cudaMalloc's cost, which timed
  /// calls no longer do: runtime/allocation_wraps.hpp; docs/measurements.md). Where such a
  /// baseline would say the student's runner slowed the reference (counted_reference),
  /// this reference process takes it again beside a twin, once the student's runner has ended,
  /// and that one counts. It is not kept: it speaks for this process only.
  void retake_kept_baselines_that_blame() {
    for (std::size_t index : kept_) {
      task_ = index;
      TimingOutcome& out = outcomes_[task_];
      if (out.status.outcome != Outcome::passed || out.reference_ms.empty() ||
          !counted_reference(out.reference_ms, out.reference_alone_ms).disturbed)  // judge_timing's own test
        continue;
      if (!reference_.alive()) return;  // a fresh one would be another process again
      const TaskStatus status = out.status;
      const bool taken = up({&reference_, &twin_}) &&
                         phase("reference baseline again", [&] { return load(twin_, reference_) && time_baseline(); });
      out.status = status;  // a baseline that failed again leaves the kept one, and the outcome, as they were
      if (!taken) return;
    }
  }

  /// Rounds until both sides are warm: the target's whole warm-up on the first target a pair of
  /// runners serves; on a later one, where the GPU has just been busy with the same two
  /// processes, only what a kernel's first calls need (later_warmup).
  bool warm_up() {
    const Warmup want = warmed_ && !full_warmup() ? later_warmup(reference_tasks_[task_].warmup_s)
                                                  : Warmup{reference_tasks_[task_].warmup_s, 1};
    const auto start = Clock::now();
    std::size_t rounds = 0;
    do {
      if (!round(next_++, false)) return false;
    } while (++rounds < want.rounds || ms_since(start) < 1000.0 * want.seconds);
    return true;
  }

  bool sample_until_done() {
    const TimeTask& task = reference_tasks_[task_];
    const StoppingRule rule{task.min_samples, task.max_samples, task.target_rse, task.budget_s};
    const auto start = Clock::now();
    // The student's side stops on the times it is graded on: where work escapes its events
    // (a side stream), the wall clock's, which the events' steadiness says nothing of.
    while (!(should_stop(student_graded_ms(), rule, ms_since(start) / 1000.0) &&
             should_stop(reference_.event_ms, rule, ms_since(start) / 1000.0))) {
      if (!round(next_++, true)) return false;
      if (!outcomes_[task_].verified) break;  // a wrong timed result: performance earns nothing
    }
    return true;
  }

  /// The last sample's outputs in full, for the comparison of every element (verdicts.cpp); the
  /// two runners write theirs at once.
  bool write_outputs() {
    const TimingOutcome& out = outcomes_[task_];
    return exchange(student_, "write " + out.student_output_file, reference_, "write " + out.reference_output_file,
                    "written", timeout_s_);
  }

  /// The protocol's own cost on the clock so far: the median of the reference's wall time beyond
  /// its events (the reference's events are believed).
  double protocol_cost_ms() const {
    std::vector<double> overhead;
    for (std::size_t i = 0; i < reference_.wall_ms.size() && i < reference_.event_ms.size(); ++i)
      overhead.push_back(reference_.wall_ms[i] - reference_.event_ms[i]);
    return std::max(0.0, summarize(overhead).median);
  }

  /// `wall_ms` with the protocol's cost `cost_ms` taken off each time (never below 0).
  static std::vector<double> less_protocol(std::vector<double> wall_ms, double cost_ms) {
    for (double& wall : wall_ms) wall = std::max(0.0, wall - cost_ms);
    return wall_ms;
  }

  /// The student's samples so far as they will be graded (settle, then timing_stats).
  std::vector<double> student_graded_ms() const {
    return graded_samples(student_.event_ms, less_protocol(student_.wall_ms, protocol_cost_ms()));
  }

  /// The current target's samples into its outcome. The protocol's own cost (two round trips,
  /// the digest) is what the reference's clock reads beyond its events; taken off both sides'
  /// clocks, it leaves what timing_stats compares.
  void settle() {
    const double cost = protocol_cost_ms();
    for (Side* side : {&student_, &reference_}) side->wall_ms = less_protocol(std::move(side->wall_ms), cost);
    TimingOutcome& out = outcomes_[task_];
    out.student_ms = std::move(student_.event_ms);
    out.student_wall_ms = std::move(student_.wall_ms);
    out.reference_ms = std::move(reference_.event_ms);
    out.reference_wall_ms = std::move(reference_.wall_ms);
  }

  ProcessRunner& processes_;
  const RunRequest& student_request_;
  fs::path reference_runner_, reference_dir_;
  BaselineCache* baselines_;  ///< baselines kept between checks; may be null
  double timeout_s_;
  std::vector<TimeTask> reference_tasks_, student_tasks_;
  std::vector<std::uint64_t> salts_;  ///< per target, so that two checks of a file differ
  std::vector<TimingOutcome> outcomes_;
  std::vector<std::size_t> selected_;  ///< the tasks to time, by index
  std::vector<std::size_t> kept_;      ///< the tasks whose baseline came from the cache
  std::size_t task_ = 0;     ///< the target being worked on
  std::size_t starts_ = 0;   ///< runners started so far (each names its own files)
  std::uint64_t next_ = 1;
  bool warmed_ = false;  ///< the two runners have served a target together since either started
  Side reference_, twin_, student_;
};

}  // namespace

Warmup later_warmup(double warmup_s) { return {std::min(warmup_s, 0.02), 3}; }

double take_baselines_ahead(ProcessRunner& processes, const RunRequest& student, const std::vector<TimeTask>& tasks,
                            const fs::path& reference_runner, const fs::path& reference_dir, BaselineCache& baselines) {
  if (tasks.empty()) return 0.0;
  return LockstepSession(processes, student, tasks, reference_runner, reference_dir, {&baselines}).baselines_only();
}

bool baselines_kept(const BaselineCache* baselines, const RunRequest& student, const std::vector<TimeTask>& tasks,
                    const fs::path& reference_runner) {
  if (!baselines) return false;
  return std::all_of(tasks.begin(), tasks.end(), [&](const TimeTask& task) {
    return baselines->find(baseline_key(reference_runner, student.environment, task)).has_value();
  });
}

std::vector<TimingOutcome> time_targets(ProcessRunner& processes, const RunRequest& student,
                                        const std::vector<TimeTask>& tasks, const fs::path& reference_runner,
                                        const fs::path& reference_dir, const TimingAids& aids) {
  if (tasks.empty()) return {};
  return LockstepSession(processes, student, tasks, reference_runner, reference_dir, aids).run();
}

}  // namespace cugrade
