#include "pipeline/selftest.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "core/work_dir.hpp"
#include "pipeline/entry_order.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/scheduler.hpp"
#include "pipeline/timed_steps.hpp"
#include "run/run_job.hpp"
#include "report/json_report.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {
std::vector<fs::path> cu_files(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Every message of a report, for the feedback check.
std::string all_messages(const GradeReport& report) {
  std::string text = report.build.message + "\n";
  for (const auto& d : report.build.diagnostics) text += d.message + "\n";
  for (const auto& c : report.cases) {
    text += c.message + "\n";
    for (const auto& cmp : c.comparisons) text += cmp.pattern + "\n";
  }
  for (const auto& p : report.performance) {
    text += p.message + "\n";
    for (const auto& f : p.flags) text += f + "\n";
  }
  for (const auto& n : report.notes) text += n + "\n";
  return text;
}

/// The limits every entry is held to, whatever its outcome: no more points than it may earn,
/// nothing in the report it must not say, no longer than it may take.
std::string judge_limits(const SelftestEntry& entry, const GradeReport& report, double seconds) {
  if (entry.score_at_most && report.score > *entry.score_at_most + 1e-9)
    return fmt::format("earned {:g} points, at most {:g} allowed", report.score, *entry.score_at_most);
  double performance = 0.0;
  for (const auto& p : report.performance) performance += p.points;
  if (entry.performance_at_most && performance > *entry.performance_at_most + 1e-9)
    return fmt::format("earned {:g} performance points, at most {:g} allowed", performance, *entry.performance_at_most);
  if (!entry.absent.empty() && report_to_json(report, true).dump().find(entry.absent) != std::string::npos)
    return "the report contains \"" + entry.absent + "\"";
  if (entry.seconds_at_most && seconds > *entry.seconds_at_most)
    return fmt::format("took {:.0f} s, at most {:g} s allowed", seconds, *entry.seconds_at_most);
  return "";
}

/// Does each step the entry names get the diagnosis it must? (On a GPU, with performance and
/// diagnosis on; elsewhere nothing is diagnosed.)
std::string judge_diagnosis(const SelftestEntry& entry, const GradeReport& report) {
  for (const auto& [step, cause] : entry.diagnosis) {
    const auto p = std::find_if(report.performance.begin(), report.performance.end(),
                                [&](const PerformanceResult& r) { return r.step == step; });
    if (p == report.performance.end()) return "no performance result for step " + step;
    if (!p->diagnosis)
      return fmt::format("step {} got no diagnosis (ratio {:.2f}, {:g} of {:g} points)", step, p->ratio, p->points,
                         p->max_points);
    if (p->diagnosis->cause == "unavailable")  // the profiler, not the grading: say how to go on without it
      return fmt::format("step {} could not be diagnosed ({}); where the profiler cannot run, use --no-diagnosis", step,
                         p->diagnosis->message);
    if (p->diagnosis->cause != cause)
      return fmt::format("the diagnosis of step {} names {}, not {}: {}", step, p->diagnosis->cause, cause,
                         p->diagnosis->message);
  }
  return "";
}

/// Does the report meet the entry's expectation?
/// " (what went wrong)" for a report that is a fault of cugrade's, so that the self-test's line
/// says it: the build's message where the build was the harness's error, else the last note.
std::string harness_fault(const GradeReport& report) {
  if (report.outcome != Outcome::harness_error) return "";
  std::string why = report.build.outcome == Outcome::harness_error && !report.build.message.empty() ? report.build.message
                    : report.notes.empty()                                                        ? ""
                                                                                                  : report.notes.back();
  if (why.empty()) return "";
  if (why.size() > 300) why = why.substr(0, 300) + "...";
  return " (" + why + ")";
}

std::string judge(const SelftestEntry& entry, const GradeReport& report, const std::string& backend) {
  if (entry.expect_full_marks) {
    if (report.outcome != Outcome::passed) return "expected passed, got " + std::string(to_string(report.outcome));
    if (report.score + 1e-9 < report.max_score)
      return "expected full marks, got " + std::to_string(report.score) + " / " + std::to_string(report.max_score);
    return "";
  }
  if (entry.expect_failure) {
    if (report.outcome == Outcome::passed) return "the template passed; it must fail";
    if (report.outcome == Outcome::harness_error) return "the template got harness_error" + harness_fault(report);
    if (!report.gradable) return "the template does not build (" + report.build.message + ")";
    return "";
  }
  // A GPU may hide a flaky bug, or show it without the diagnosis the CPU backend gives (which
  // is what `feedback` names): on the GPU any outcome a student can get, and any message, will
  // do; a fault of cugrade's never does.
  if (entry.flaky_on_gpu && backend == "cuda")
    return report.outcome == Outcome::harness_error ? "got harness_error" + harness_fault(report) : "";
  if (report.outcome != entry.expected)
    return "expected " + std::string(to_string(entry.expected)) + ", got " + std::string(to_string(report.outcome)) +
           harness_fault(report);
  if (!entry.feedback.empty() && all_messages(report).find(entry.feedback) == std::string::npos)
    return "the feedback does not contain \"" + entry.feedback + "\"";
  return "";
}

/// The first thing the report says went wrong: a case's message, else a timed step's, else its
/// last note (shortened); empty when nothing did.
std::string first_failure(const GradeReport& report) {
  const auto said = [](const std::string& where, Outcome outcome, const std::string& message) {
    return where + ": " + (message.empty() ? std::string(to_string(outcome)) : message);
  };
  std::string what;
  for (const auto& c : report.cases)
    if (c.outcome != Outcome::passed && c.outcome != Outcome::not_run && what.empty()) what = said(c.id, c.outcome, c.message);
  for (const auto& p : report.performance)
    if (p.outcome != Outcome::passed && p.outcome != Outcome::not_run && what.empty())
      what = said(p.step, p.outcome, p.message);
  if (what.empty() && !report.notes.empty()) what = report.notes.back();
  if (what.size() > 200) what = what.substr(0, 200) + "...";
  return what;
}

/// Where each timed step of a run check spent its time (describe_timings), in the job's order.
std::vector<std::string> timing_phases(const RanSubmission& ran) {
  if (!ran.built.plan) return {};
  return describe_timings(ran.built.plan->job.timings, ran.timed_runs);
}

/// A check's own seconds: its stages, not its wait for a builder or the GPU.
double own_seconds(const StageSeconds& spent) {
  return spent.build + spent.inputs + spent.run + spent.timing + spent.diagnosis;
}

/// What differs from the entry's expectation in `report` (checked with `options`); empty: ok.
std::string verdict(const SelftestEntry& entry, const GradeReport& report, const StageSeconds& spent,
                    const CheckOptions& options) {
  const std::string& backend = report.environment.backend;
  std::string why = judge(entry, report, backend);
  if (why.empty()) why = judge_limits(entry, report, own_seconds(spent));
  if (why.empty() && backend == "cuda" && options.performance && options.diagnosis) why = judge_diagnosis(entry, report);
  return why;
}
}  // namespace

Result<std::vector<SelftestEntry>> selftest_entries(const Locations& where, const std::string& id) {
  std::vector<SelftestEntry> entries;
  SelftestEntry reference;
  reference.label = "reference";
  reference.files = cu_files(where.references() / id);
  reference.expect_full_marks = true;
  reference.reference_only_steps = true;
  SelftestEntry starter;
  starter.label = "template";
  starter.files = cu_files(where.templates() / id);
  starter.expect_failure = true;
  if (reference.files.empty()) return fail("reference/" + id + "/ holds no .cu file");
  if (starter.files.empty()) return fail("templates/" + id + "/ holds no .cu file");
  entries.push_back(reference);
  entries.push_back(starter);
  const fs::path solutions = where.root / "graders" / id / "solutions";
  const fs::path listing = solutions / "expected.yaml";
  if (!fs::exists(listing)) return entries;
  try {
    for (const auto& node : YAML::LoadFile(listing.string())) {
      SelftestEntry e;
      e.label = node["file"].as<std::string>();
      e.files = {solutions / e.label};
      const auto outcome = outcome_from_string(node["outcome"].as<std::string>());
      if (!outcome) return fail(listing.string() + ": unknown outcome for " + e.label);
      e.expected = *outcome;
      if (node["feedback"]) e.feedback = node["feedback"].as<std::string>();
      if (node["absent"]) e.absent = node["absent"].as<std::string>();
      if (node["score_at_most"]) e.score_at_most = node["score_at_most"].as<double>();
      if (node["performance_at_most"]) e.performance_at_most = node["performance_at_most"].as<double>();
      if (node["seconds_at_most"]) e.seconds_at_most = node["seconds_at_most"].as<double>();
      if (node["flaky_on_gpu"]) e.flaky_on_gpu = node["flaky_on_gpu"].as<bool>();
      if (node["sanitizer"]) e.sanitizer = node["sanitizer"].as<bool>();
      if (node["alone"]) e.alone = node["alone"].as<bool>();
      if (node["diagnosis"]) e.diagnosis = node["diagnosis"].as<std::map<std::string, std::string>>();
      if (node["backends"]) e.backends = node["backends"].as<std::vector<std::string>>();
      if (!fs::exists(e.files.front())) return fail(listing.string() + ": " + e.label + " does not exist");
      entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception& e) {
    return fail(listing.string() + ": " + e.what());
  }
  return entries;
}

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

std::vector<SelftestResult> run_selftest(const CheckContext& context, const std::vector<SelftestSuite>& suites,
                                         const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result,
                                         SelftestWorkers workers) {
  const std::string asked = options.backend == Backend::automatic ? "" : to_string(options.backend);
  const bool gpu = options.backend == Backend::cuda ||
                   (options.backend == Backend::automatic && context.device && context.device->present());
  struct Item {
    std::size_t suite;
    const SelftestEntry* entry;
  };
  std::vector<Item> graded;
  for (std::size_t s = 0; s < suites.size(); ++s)
    for (const auto& entry : suites[s].entries) {  // one known not to hold on this backend is not worth building
      if (!asked.empty() && std::find(entry.backends.begin(), entry.backends.end(), asked) == entry.backends.end())
        continue;
      if (gpu && entry.sanitizer && !options.sanitizer) continue;  // its outcome is the sanitizer's finding
      graded.push_back({s, &entry});
    }
  // The longest first (entry_order.hpp): item k of the batch is entry order[k].
  std::vector<std::string> keys;
  for (const Item& item : graded)
    keys.push_back(entry_seconds_key(gpu ? "cuda" : "cpu", suites[item.suite].spec->id, *item.entry));
  std::map<std::string, double> last_seconds = load_entry_seconds(workers.first_seconds_file);
  for (const auto& [key, s] : load_entry_seconds(workers.seconds_file)) last_seconds[key] = s;
  const std::vector<std::size_t> order = longest_first(keys, last_seconds);
  std::map<std::string, double> seconds_now;
  // Every entry of a suite grades the same cases: their inputs and gold are made once per suite.
  // Each input file is written once, into a folder beside the checks' own (under the same
  // temporary folder, so that they can link to it), removed with the materials. Baselines and
  // counters are kept by reference runner: one cache serves every suite. Entries side by side on
  // one GPU take turns: the cases together, each timing alone.
  CheckContext shared = context;
  // A baseline serves the whole run: the timing comes after minutes of shared work, and with a
  // batch's lifetime of one (30 s) most timed entries took their suite's again (on an H100, 35
  // baselines taken for 14 targets). One that would blame an entry is taken again by the entry's
  // own reference process (lockstep_timing), so the GPU's drift blames no one.
  if (!shared.baselines) shared.baselines = std::make_shared<BaselineCache>(selftest_baseline_lifetime_s);
  if (!shared.counters) shared.counters = kept_counters(shared.device);
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t runs_per_gpu = workers.runs_per_gpu ? workers.runs_per_gpu : default_runs_per_gpu(cores);
  const std::size_t runs_once_built = workers.runs_per_gpu ? workers.runs_per_gpu : default_runs_per_gpu_once_built(cores);
  // The turns alone come once the shared work is done: a turn alone taken earlier first empties
  // the GPU, which idles most of it while the longest shared turn ends (with turns alone gathered
  // four at a time, 104 s of a 405 s self-test on an H100: docs/measurements.md). Each entry has
  // a lane of its own, so that one waiting to be alone holds back none that would share.
  const bool take_turns = gpu && runs_per_gpu > 1;
  const bool own_turns = take_turns && !shared.gpu_turns;  // a caller's turns keep their width
  if (own_turns) shared.gpu_turns = std::make_shared<GpuTurns>(runs_per_gpu, SIZE_MAX);
  const std::size_t lanes = take_turns ? std::max(graded.size(), runs_per_gpu) : runs_per_gpu;
  std::vector<CheckContext> contexts(suites.size(), shared);
  for (auto& c : contexts)
    if (!c.materials) c.materials = std::make_shared<CaseMaterials>(make_work_dir({}, "cugrade-inputs-"));
  // Builds in parallel; runs on a GPU `runs_per_gpu` at a time, on the CPU backend each worker
  // runs what it built, with its share of the cores.
  const std::size_t builders =
      std::min(std::max<std::size_t>(1, workers.jobs ? workers.jobs : cores), std::max<std::size_t>(1, graded.size()));
  std::vector<std::optional<BuiltSubmission>> built(graded.size());
  std::vector<std::optional<SelftestResult>> judged(graded.size());
  std::mutex heard;
  // The steps each suite's entries diagnose: the first entry to profile the reference profiles
  // them all in one run, and the others find their reference's counters kept.
  std::vector<std::set<std::string>> diagnosed_in_suite(suites.size());
  for (const Item& item : graded)
    for (const auto& [step, cause] : item.entry->diagnosis) diagnosed_in_suite[item.suite].insert(step);
  const auto check_options = [&](std::size_t i) {
    CheckOptions one = selftest_check_options(options, *graded[i].entry, gpu ? 0 : cpu_threads_per_worker(builders));
    if (one.diagnosis) one.reference_steps_ahead = diagnosed_in_suite[graded[i].suite];
    return one;
  };
  const auto spec_of = [&](std::size_t i) -> const Spec& { return *suites[graded[i].suite].spec; };
  const auto grader_of = [&](std::size_t i) -> const Grader& { return *suites[graded[i].suite].grader; };
  std::vector<std::optional<RanSubmission>> ran(graded.size());
  std::atomic<std::size_t> builds_done{0};
  // Entry i run from `built` with the GPU alone (its context takes no turns of its own).
  const auto run_alone = [&](std::size_t i, BuiltSubmission built) {
    CheckContext alone = contexts[graded[i].suite];
    alone.gpu_turns = nullptr;
    const GpuTurns::Turn turn = shared.gpu_turns->alone();
    return run_submission(alone, spec_of(i), grader_of(i), check_options(i), std::move(built));
  };
  // Entry i graded again from its files, with the GPU alone (a build of its own, then the run).
  const auto again_alone = [&](std::size_t i) {
    return run_alone(i, build_for_check(contexts[graded[i].suite], spec_of(i), grader_of(i), check_options(i)));
  };
  schedule_batch(
      graded.size(), WorkerPlan{builders, gpu && builders > 1 ? lanes : 0, 0, 1},  // -j 1: one after another
      [&](std::size_t k) {
        const std::size_t i = order[k];
        built[i] = build_for_check(contexts[graded[i].suite], spec_of(i), grader_of(i), check_options(i));
        if (++builds_done == graded.size() && own_turns) shared.gpu_turns->share_with(runs_once_built);
      },
      [&](std::size_t k, std::size_t) {
        const std::size_t i = order[k];
        if (graded[i].entry->alone && shared.gpu_turns)
          ran[i] = run_alone(i, std::move(*built[i]));
        else
          ran[i] = run_submission(contexts[graded[i].suite], spec_of(i), grader_of(i), check_options(i),
                                  std::move(*built[i]));
        built[i].reset();
      },
      nullptr,
      [&](std::size_t k) {
        const std::size_t i = order[k];
        const SelftestEntry& entry = *graded[i].entry;
        StageSeconds spent;
        std::string beside_others;
        std::vector<std::string> phases = timing_phases(*ran[i]);
        GradeReport report = score_submission(spec_of(i), check_options(i), std::move(*ran[i]), &spent);
        ran[i].reset();
        const std::string backend = report.environment.backend;
        if (std::find(entry.backends.begin(), entry.backends.end(), backend) == entry.backends.end()) return;
        std::string why = verdict(entry, report, spent, options);
        // A neighbour on the GPU can take its memory, or clear the shared memory a runner
        // poisons when its context starts: a miss beside others is graded again alone (an entry
        // graded alone already is not).
        if (!why.empty() && shared.gpu_turns && backend == "cuda" && !entry.alone) {
          beside_others = std::string(to_string(report.outcome)) + ": " + why;
          if (const std::string what = first_failure(report); !what.empty()) beside_others += " (" + what + ")";
          spent = {};
          RanSubmission again = again_alone(i);
          phases = timing_phases(again);
          report = score_submission(spec_of(i), check_options(i), std::move(again), &spent);
          why = verdict(entry, report, spent, options);
        }
        std::lock_guard lock(heard);
        seconds_now[keys[i]] = spent.build + spent.inputs + spent.run;
        judged[i] = SelftestResult{spec_of(i).id, entry, std::move(report), why.empty(), why, own_seconds(spent), spent,
                                   beside_others, std::move(phases)};
        if (on_result) on_result(*judged[i]);
      });
  save_entry_seconds(workers.seconds_file, seconds_now);
  std::vector<SelftestResult> results;
  for (auto& r : judged)
    if (r) results.push_back(std::move(*r));
  return results;
}

std::vector<SelftestResult> run_selftest(const CheckContext& context, const Spec& spec, const Grader& grader,
                                         const std::vector<SelftestEntry>& entries, const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result,
                                         SelftestWorkers workers) {
  return run_selftest(context, {SelftestSuite{&spec, &grader, entries}}, options, on_result, workers);
}

}  // namespace cugrade
