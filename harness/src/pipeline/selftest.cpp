#include "pipeline/selftest.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/work_dir.hpp"
#include "pipeline/entry_order.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/scheduler.hpp"
#include "pipeline/selftest_verdict.hpp"
#include "pipeline/timed_steps.hpp"
#include "run/run_job.hpp"

namespace cugrade {
namespace fs = std::filesystem;

bool judged_on_performance(const SelftestEntry& entry) {
  if (entry.expect_failure) return false;
  return entry.expect_full_marks || entry.expected == Outcome::passed || entry.score_at_most ||
         entry.performance_at_most || !entry.diagnosis.empty();
}

CheckOptions selftest_check_options(const CheckOptions& options, const SelftestEntry& entry, std::size_t cpu_threads) {
  CheckOptions one = options;
  one.submission = entry.files;
  one.reference_only_steps = entry.reference_only_steps;
  one.performance = options.performance && judged_on_performance(entry);
  one.diagnosis = options.diagnosis && !entry.diagnosis.empty();
  for (const auto& [step, cause] : entry.diagnosis) one.diagnosed_steps.insert(step);
  one.diagnosis_lines = false;  // a cause is judged, its line is not: no source page to profile
  if (cpu_threads) one.runner_environment[cpu_threads_variable] = std::to_string(cpu_threads);
  return one;
}

std::string entry_seconds_key(const std::string& backend, const std::string& assignment, const SelftestEntry& entry) {
  return backend + "|" + assignment + "|" + entry.label;
}

std::size_t default_runs_per_gpu(std::size_t cores) { return std::clamp<std::size_t>(cores * 3 / 8, 1, 6); }

std::size_t default_runs_per_gpu_once_built(std::size_t cores) {
  const std::size_t runs = default_runs_per_gpu(cores);
  return runs == 1 ? 1 : runs + runs / 2;
}

namespace {

/// Where each timed step of a run check spent its time (describe_timings), in the job's order.
std::vector<std::string> timing_phases(const RanSubmission& ran) {
  if (!ran.built.plan) return {};
  return describe_timings(ran.built.plan->job.timings, ran.timed_runs);
}

/// One self-test as a batch: its entries in the order they start, the contexts they share, and
/// each entry's way from its build to its verdict (run_selftest's stages).
class SelftestRun {
 public:
  SelftestRun(const CheckContext& context, const std::vector<SelftestSuite>& suites, const CheckOptions& options,
              const SelftestWorkers& workers)
      : suites_(suites),
        options_(options),
        gpu_(options.backend == Backend::cuda ||
             (options.backend == Backend::automatic && context.device && context.device->present())),
        graded_(entries_to_grade()),
        shared_(shared_context(context, workers)),
        contexts_(suites.size(), shared_) {
    order_longest_first(workers);
    // Every entry of a suite grades the same cases: their inputs and gold are made once per suite.
    // Each input file is written once, into a folder beside the checks' own (under the same
    // temporary folder, so that they can link to it), removed with the materials.
    for (auto& c : contexts_)
      if (!c.materials) c.materials = std::make_shared<CaseMaterials>(make_work_dir({}, "cugrade-inputs-"));
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    builders_ = std::min(std::max<std::size_t>(1, workers.jobs ? workers.jobs : cores),
                         std::max<std::size_t>(1, graded_.size()));
    built_.resize(graded_.size());
    ran_.resize(graded_.size());
    judged_.resize(graded_.size());
    // The steps each suite's entries diagnose: the first entry to profile the reference profiles
    // them all in one run, and the others find their reference's counters kept.
    diagnosed_in_suite_.resize(suites_.size());
    for (const Item& item : graded_)
      for (const auto& [step, cause] : item.entry->diagnosis) diagnosed_in_suite_[item.suite].insert(step);
  }

  /// How many entries it grades.
  std::size_t size() const { return graded_.size(); }
  /// Builds in parallel; runs on a GPU `runs_per_gpu` at a time, on the CPU backend each worker
  /// runs what it built, with its share of the cores.
  WorkerPlan worker_plan() const { return WorkerPlan{builders_, gpu_ && builders_ > 1 ? lanes_ : 0, 0, 1}; }  // -j 1: one after another

  /// Builds the k-th entry to start; the last build lets more entries share the GPU.
  void build(std::size_t k) {
    const std::size_t i = order_[k];
    built_[i] = build_for_check(contexts_[graded_[i].suite], spec_of(i), grader_of(i), check_options(i));
    if (++builds_done_ == graded_.size() && own_turns_) shared_.gpu_turns->share_with(runs_once_built_);
  }

  /// Runs the k-th entry: beside the others, or with the GPU alone where it would fail them.
  void run(std::size_t k) {
    const std::size_t i = order_[k];
    if (graded_[i].entry->alone && shared_.gpu_turns)
      ran_[i] = run_alone(i, std::move(*built_[i]));
    else
      ran_[i] = run_submission(contexts_[graded_[i].suite], spec_of(i), grader_of(i), check_options(i),
                               std::move(*built_[i]));
    built_[i].reset();
  }

  /// Scores the k-th entry and judges it against its expectation (a miss beside others graded
  /// again alone); `on_result` hears it.
  void judge(std::size_t k, const std::function<void(const SelftestResult&)>& on_result) {
    const std::size_t i = order_[k];
    const SelftestEntry& entry = *graded_[i].entry;
    StageSeconds spent;
    std::string beside_others;
    std::vector<std::string> phases = timing_phases(*ran_[i]);
    GradeReport report = score_submission(shared_, spec_of(i), check_options(i), std::move(*ran_[i]), &spent);
    ran_[i].reset();
    const std::string backend = report.environment.backend;
    if (std::find(entry.backends.begin(), entry.backends.end(), backend) == entry.backends.end()) return;
    std::string why = selftest_verdict(entry, report, spent, options_);
    // A neighbour on the GPU can take its memory, or clear the shared memory a runner
    // poisons when its context starts: a miss beside others is graded again alone (an entry
    // graded alone already is not).
    if (!why.empty() && shared_.gpu_turns && backend == "cuda" && !entry.alone) {
      beside_others = std::string(to_string(report.outcome)) + ": " + why;
      if (const std::string what = first_failure(report); !what.empty()) beside_others += " (" + what + ")";
      spent = {};
      RanSubmission again = again_alone(i);
      phases = timing_phases(again);
      report = score_submission(shared_, spec_of(i), check_options(i), std::move(again), &spent);
      why = selftest_verdict(entry, report, spent, options_);
    }
    std::lock_guard lock(heard_);
    seconds_now_[keys_[i]] = spent.build + spent.inputs + spent.run;
    judged_[i] = SelftestResult{spec_of(i).id, entry, std::move(report), why.empty(), why, own_seconds(spent), spent,
                                beside_others, std::move(phases)};
    if (on_result) on_result(*judged_[i]);
  }

  /// The results in the suites' order; each entry's seconds kept in `seconds_file` for the next
  /// self-test's order.
  std::vector<SelftestResult> results(const fs::path& seconds_file) {
    save_entry_seconds(seconds_file, seconds_now_);
    std::vector<SelftestResult> results;
    for (auto& r : judged_)
      if (r) results.push_back(std::move(*r));
    return results;
  }

 private:
  struct Item {
    std::size_t suite;
    const SelftestEntry* entry;
  };

  /// The entries worth grading here: one known not to hold on this backend is not worth building.
  std::vector<Item> entries_to_grade() const {
    const std::string asked = options_.backend == Backend::automatic ? "" : to_string(options_.backend);
    std::vector<Item> graded;
    for (std::size_t s = 0; s < suites_.size(); ++s)
      for (const auto& entry : suites_[s].entries) {
        if (!asked.empty() && std::find(entry.backends.begin(), entry.backends.end(), asked) == entry.backends.end())
          continue;
        if (gpu_ && entry.sanitizer && !options_.sanitizer) continue;  // its outcome is the sanitizer's finding
        graded.push_back({s, &entry});
      }
    return graded;
  }

  /// The longest first (entry_order.hpp): item k of the batch is entry order_[k].
  void order_longest_first(const SelftestWorkers& workers) {
    for (const Item& item : graded_)
      keys_.push_back(entry_seconds_key(gpu_ ? "cuda" : "cpu", suites_[item.suite].spec->id, *item.entry));
    std::map<std::string, double> last_seconds = load_entry_seconds(workers.first_seconds_file);
    for (const auto& [key, s] : load_entry_seconds(workers.seconds_file)) last_seconds[key] = s;
    order_ = longest_first(keys_, last_seconds);
  }

  /// What the entries share: the caches, and on a GPU the turns of the entries side by side (the
  /// cases together, each timing alone); sets the lanes and their number once every entry is built.
  CheckContext shared_context(const CheckContext& context, const SelftestWorkers& workers) {
    // Baselines and counters are kept by reference runner: one cache serves every suite.
    CheckContext shared = context;
    // A baseline serves the whole run: the timing comes after minutes of shared work, and with a
    // batch's lifetime of one (30 s) most timed entries took their suite's again (on an H100, 35
    // baselines taken for 14 targets). One that would blame an entry is taken again by the entry's
    // own reference process (lockstep_timing), so the GPU's drift blames no one.
    if (!shared.baselines) shared.baselines = std::make_shared<BaselineCache>(selftest_baseline_lifetime_s);
    if (!shared.counters) shared.counters = kept_counters(shared.device);
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t runs_per_gpu = workers.runs_per_gpu ? workers.runs_per_gpu : default_runs_per_gpu(cores);
    runs_once_built_ = workers.runs_per_gpu ? workers.runs_per_gpu : default_runs_per_gpu_once_built(cores);
    // The turns alone come once the shared work is done: a turn alone taken earlier first empties
    // the GPU, which idles most of it while the longest shared turn ends (with turns alone gathered
    // four at a time, 104 s of a 405 s self-test on an H100: docs/measurements.md). Each entry has
    // a lane of its own, so that one waiting to be alone holds back none that would share.
    const bool take_turns = gpu_ && runs_per_gpu > 1;
    own_turns_ = take_turns && !shared.gpu_turns;  // a caller's turns keep their width
    if (own_turns_) shared.gpu_turns = std::make_shared<GpuTurns>(runs_per_gpu, SIZE_MAX);
    lanes_ = take_turns ? std::max(graded_.size(), runs_per_gpu) : runs_per_gpu;
    return shared;
  }

  CheckOptions check_options(std::size_t i) const {
    CheckOptions one = selftest_check_options(options_, *graded_[i].entry, gpu_ ? 0 : cpu_threads_per_worker(builders_));
    if (one.diagnosis) one.reference_steps_ahead = diagnosed_in_suite_[graded_[i].suite];
    return one;
  }
  const Spec& spec_of(std::size_t i) const { return *suites_[graded_[i].suite].spec; }
  const Grader& grader_of(std::size_t i) const { return *suites_[graded_[i].suite].grader; }

  /// Entry i run from `built` with the GPU alone (its context takes no turns of its own).
  RanSubmission run_alone(std::size_t i, BuiltSubmission built) {
    CheckContext alone = contexts_[graded_[i].suite];
    alone.gpu_turns = nullptr;
    const GpuTurns::Turn turn = shared_.gpu_turns->alone();
    return run_submission(alone, spec_of(i), grader_of(i), check_options(i), std::move(built));
  }
  /// Entry i graded again from its files, with the GPU alone (a build of its own, then the run).
  RanSubmission again_alone(std::size_t i) {
    return run_alone(i, build_for_check(contexts_[graded_[i].suite], spec_of(i), grader_of(i), check_options(i)));
  }

  const std::vector<SelftestSuite>& suites_;
  const CheckOptions& options_;
  const bool gpu_;
  std::size_t builders_ = 1, lanes_ = 1, runs_once_built_ = 1;  // (before shared_: shared_context sets them)
  bool own_turns_ = false;  ///< the GPU's turns are this self-test's own (not a caller's)
  std::vector<Item> graded_;
  CheckContext shared_;
  std::vector<CheckContext> contexts_;  ///< per suite: shared_, with its own inputs and gold
  std::vector<std::string> keys_;       ///< each entry's key in the seconds files
  std::vector<std::size_t> order_;      ///< item k of the batch is entry order_[k]
  std::vector<std::set<std::string>> diagnosed_in_suite_;
  std::vector<std::optional<BuiltSubmission>> built_;
  std::vector<std::optional<RanSubmission>> ran_;
  std::vector<std::optional<SelftestResult>> judged_;
  std::atomic<std::size_t> builds_done_{0};
  std::mutex heard_;  ///< one result heard at a time
  std::map<std::string, double> seconds_now_;
};

}  // namespace

std::vector<SelftestResult> run_selftest(const CheckContext& context, const std::vector<SelftestSuite>& suites,
                                         const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result,
                                         SelftestWorkers workers) {
  SelftestRun selftest(context, suites, options, workers);  // its entries, longest first; what they share
  schedule_batch(
      selftest.size(), selftest.worker_plan(), [&](std::size_t k) { selftest.build(k); },
      [&](std::size_t k, std::size_t) { selftest.run(k); }, nullptr,
      [&](std::size_t k) { selftest.judge(k, on_result); });
  return selftest.results(workers.seconds_file);
}

std::vector<SelftestResult> run_selftest(const CheckContext& context, const Spec& spec, const Grader& grader,
                                         const std::vector<SelftestEntry>& entries, const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result,
                                         SelftestWorkers workers) {
  return run_selftest(context, {SelftestSuite{&spec, &grader, entries}}, options, on_result, workers);
}

}  // namespace cugrade
