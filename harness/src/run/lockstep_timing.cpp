#include "run/lockstep_timing.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "run/lockstep_session.hpp"
#include "run/timing_digests.hpp"
#include "statistics.hpp"
#include "timing/timing_stats.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// False when CUGRADE_FULL_WARMUP=1 asks for every target's whole warm-up, later ones too (a
/// benchmark's side-by-side comparison, scripts/bench-warmup.sh).
bool full_warmup() {
  const char* value = std::getenv("CUGRADE_FULL_WARMUP");
  return value && std::string(value) == "1";
}

}  // namespace

std::vector<TimingOutcome> LockstepSession::run() {
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
  // All ended at once (each context takes a while to go) unless a kept baseline is to be taken
  // again, which waits for the student's runner to have ended.
  if (std::none_of(kept_.begin(), kept_.end(), [&](std::size_t index) { return kept_baseline_blames(index); })) {
    quit({&student_, &reference_, &twin_});
    return std::move(outcomes_);
  }
  quit({&student_});
  retake_kept_baselines_that_blame();
  quit({&reference_, &twin_});
  return std::move(outcomes_);
}

double LockstepSession::baselines_only() {
  const auto start = Clock::now();
  take_baselines();
  quit({&twin_, &reference_});
  return ms_since(start) / 1000.0;
}

std::vector<bool> LockstepSession::take_baselines() {
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

bool LockstepSession::time_baseline() {
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

bool LockstepSession::kept_baseline_blames(std::size_t index) const {
  const TimingOutcome& out = outcomes_[index];
  return out.status.outcome == Outcome::passed && !out.reference_ms.empty() &&
         counted_reference(out.reference_ms, out.reference_alone_ms).disturbed;  // judge_timing's own test
}

void LockstepSession::retake_kept_baselines_that_blame() {
  for (std::size_t index : kept_) {
    task_ = index;
    TimingOutcome& out = outcomes_[task_];
    if (!kept_baseline_blames(index)) continue;
    if (!reference_.alive()) return;  // a fresh one would be another process again
    const TaskStatus status = out.status;
    const bool taken = up({&reference_, &twin_}) &&
                       phase("reference baseline again", [&] { return load(twin_, reference_) && time_baseline(); });
    out.status = status;  // a baseline that failed again leaves the kept one, and the outcome, as they were
    if (!taken) return;
  }
}

bool LockstepSession::warm_up() {
  const Warmup want = warmed_ && !full_warmup() ? later_warmup(reference_tasks_[task_].warmup_s)
                                                : Warmup{reference_tasks_[task_].warmup_s, 1};
  const auto start = Clock::now();
  std::size_t rounds = 0;
  do {
    if (!round(next_++, false)) return false;
  } while (++rounds < want.rounds || ms_since(start) < 1000.0 * want.seconds);
  return true;
}

bool LockstepSession::sample_until_done() {
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

bool LockstepSession::write_outputs() {
  const TimingOutcome& out = outcomes_[task_];
  return exchange(student_, "write " + out.student_output_file, reference_, "write " + out.reference_output_file,
                  "written", timeout_s_);
}

double LockstepSession::protocol_cost_ms() const {
  std::vector<double> overhead;
  for (std::size_t i = 0; i < reference_.wall_ms.size() && i < reference_.event_ms.size(); ++i)
    overhead.push_back(reference_.wall_ms[i] - reference_.event_ms[i]);
  return std::max(0.0, summarize(overhead).median);
}

std::vector<double> LockstepSession::less_protocol(std::vector<double> wall_ms, double cost_ms) {
  for (double& wall : wall_ms) wall = std::max(0.0, wall - cost_ms);
  return wall_ms;
}

std::vector<double> LockstepSession::student_graded_ms() const {
  return graded_samples(student_.event_ms, less_protocol(student_.wall_ms, protocol_cost_ms()));
}

void LockstepSession::settle() {
  const double cost = protocol_cost_ms();
  for (Side* side : {&student_, &reference_}) side->wall_ms = less_protocol(std::move(side->wall_ms), cost);
  TimingOutcome& out = outcomes_[task_];
  out.student_ms = std::move(student_.event_ms);
  out.student_wall_ms = std::move(student_.wall_ms);
  out.reference_ms = std::move(reference_.event_ms);
  out.reference_wall_ms = std::move(reference_.wall_ms);
}

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
