#include "pipeline/check_submission.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "build/staging.hpp"
#include "check/cross_case.hpp"
#include "device/gpu_claim.hpp"
#include "diagnose/diagnose_steps.hpp"
#include "diagnose/ncu_command.hpp"
#include "pipeline/alone_rerun.hpp"
#include "pipeline/build_for_check.hpp"
#include "pipeline/case_plan.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/run_requests.hpp"
#include "pipeline/sanitizer_pass.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/stage_progress.hpp"
#include "pipeline/student_file_names.hpp"
#include "pipeline/timed_steps.hpp"
#include "pipeline/verdicts.hpp"
#include "process/cpu_affinity.hpp"
#include "process/step_folder.hpp"
#include "report/not_run.hpp"
#include "run/reference_runs.hpp"
#include "run/run_job.hpp"
#include "run/lockstep_timing.hpp"
#include "score/score.hpp"
#include "spec/spec_loader.hpp"
#include "start_gate.hpp"

namespace cugrade {
namespace fs = std::filesystem;

std::string to_string(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::cuda: return "cuda";
    case Backend::cpu: return "cpu";
  }
  return "auto";
}

namespace {
/// Adds the cross-case pattern ("wrong only at sizes that are not a multiple of 32") to the
/// first visible wrong answer of each step.
void add_cross_case_patterns(GradeReport& report, const Spec& spec) {
  for (const auto& step : spec.steps) {
    std::vector<CaseResult> of_step;
    for (const auto& c : report.cases)
      if (c.step == step.name && c.visibility == Visibility::visible) of_step.push_back(c);
    const std::string line = cross_case_pattern(of_step);
    if (line.empty()) continue;
    for (auto& c : report.cases)
      if (c.step == step.name && c.visibility == Visibility::visible && c.outcome == Outcome::wrong_answer) {
        c.message += (c.message.empty() ? "across the cases: " : " — across the cases: ") + line;
        break;
      }
  }
}

/// The diagnosis stage's request for this check: the student's runner as it ran, the profiles in
/// a folder of their own.
std::vector<std::optional<PerformanceDiagnosis>> diagnose_timed_steps(const CheckContext& context,
                                                                      const CheckOptions& options,
                                                                      const RunRequest& run,
                                                                      const fs::path& reference_runner,
                                                                      const CasePlan& plan,
                                                                      const std::vector<TimingOutcome>& timed,
                                                                      const DeviceInfo& device,
                                                                      const std::vector<std::string>& file_names) {
  DiagnosisRequest request;
  request.ncu = find_ncu(context.locations);
  request.student = run;
  request.student.inputs_release_dir.clear();  // the timing's inputs, which it profiles, in their folder
  request.student.read_only = {plan.layout.inputs};
  request.reference_runner = reference_runner;
  request.work_dir = plan.layout.run.parent_path() / "diagnose";
  // Where the build staged the files, for the line a cause comes from (unless not asked for).
  if (options.diagnosis_lines) request.sources = plan.layout.run.parent_path() / std::string(staging_folder);
  request.source_names = file_names;
  request.gpu = device.name;
  if (const auto it = run.environment.find("CUDA_VISIBLE_DEVICES"); it != run.environment.end())
    request.gpu += " #" + it->second;
  request.progress = options.progress;
  request.steps = options.diagnosed_steps;
  request.reference_steps_ahead = options.reference_steps_ahead;
  std::vector<PerformanceTarget> targets;
  for (const auto& t : plan.timings) targets.push_back(t.target);
  return diagnose_slow_steps(context.processes, request, plan.job.timings, timed, targets, context.counters.get());
}

}  // namespace

RanSubmission run_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options, BuiltSubmission built) {
  RanSubmission out;
  GradeReport& report = out.report;
  report = std::move(built.report);
  const std::vector<Case>& cases = built.cases;
  const DeviceInfo& device = built.device;
  const bool use_cuda = built.use_cuda;
  const fs::path& work = built.work_dir;
  StageSeconds& spent = built.seconds;

  const std::vector<PerformanceTarget>& targets = spec.performance;
  const bool timed = use_cuda && options.performance;
  out.timed = timed;
  if (report.build.outcome != Outcome::passed) {
    mark_not_run(report, cases, timed ? targets : std::vector<PerformanceTarget>{}, "not run: the build failed");
  } else if (use_cuda && !device.present()) {
    mark_not_run(report, cases, targets,
                 "not run: no GPU is usable here (" + device.error +
                 "); the file compiled with nvcc. Run with --backend cpu to check correctness without a GPU");
  } else {
    out.ran = true;
    auto stage_started = std::chrono::steady_clock::now();
    if (!built.plan) {  // built elsewhere than by build_for_check
      built.plan = plan_cases(spec, grader, cases, timed ? targets : std::vector<PerformanceTarget>{}, work,
                              context.materials.get());
      spent.inputs = seconds_since(stage_started);
    }
    const CasePlan& plan = *built.plan;
    say(options, "running " + std::to_string(cases.size()) + " cases" +
                 (timed ? " and timing " + std::to_string(targets.size()) + " steps" : "") + " ...");
    const RunRequest run = student_run_request(spec, plan, built.runner, use_cuda, options);
    const fs::path reference_runner = context.locations.reference_runner(spec.id, use_cuda);
    // On the GPU, the cases run a second time with shared memory starting as 0x00 in the same
    // runner, after the first (schedule_race.hpp).
    const bool shared_on_gpu = use_cuda && mentions_shared_memory(options.submission);
    RunRequest first_run = run;
    if (shared_on_gpu)
      for (CheckTask& repeat : zero_poison_repeats(run.job, run.work_dir / "poison-00"))
        first_run.job.checks.push_back(std::move(repeat));
    // Where every baseline is kept, both timing runners start now, beside the cases' runner, so
    // that their start overlaps its. Another process's context starting clears the shared memory
    // the cases' runner poisons (lockstep_timing.hpp), so that runner waits at a start gate until
    // both are up; they load their first step only once the cases have run (loading is GPU work).
    const RunRequest timing_run = timing_run_request(run, plan);
    // Beside other lanes, the cases share the GPU; the timing waits for it alone (gpu_turns.hpp).
    GpuTurns::Turn turn = context.gpu_turns ? context.gpu_turns->shared() : GpuTurns::Turn{};
    EarlyRunners early;
    std::future<void> gate;
    // No early runner beside other lanes: it would still be alive while another lane times.
    if (timed && timing_ahead() && !context.gpu_turns && !plan.job.timings.empty() &&
        baselines_kept(context.baselines.get(), timing_run, plan.job.timings, reference_runner)) {
      const PinnedThread pinned(check_timing_cpus(options));  // the runners inherit it
      early = start_early_runners(context.processes, timing_run, plan.job.timings, reference_runner,
                                  plan.layout.reference_timing);
      first_run.start_gate = run.work_dir / "start-gate";
      gate = std::async(std::launch::async, [&early, file = first_run.start_gate] {
        early.await_up(start_gate_most_s / 2);  // opened whatever happened: a failed runner starts again later
        create_empty_file(file);  // the cases' runner is alive: never through a link it made there
      });
    }
    stage_started = std::chrono::steady_clock::now();
    RunOutcome ran = run_job_with_reference(context.processes, first_run, reference_runner, plan.layout.reference);
    if (gate.valid()) gate.get();
    RunOutcome zero_poison = take_repeats(ran);
    name_cases_in_messages(ran, plan);
    spent.run = seconds_since(stage_started);
    say(options, fmt::format("ran the cases in {:.1f} s (build {:.1f} s, inputs and gold {:.1f} s)", spent.run,
                             spent.build, spent.inputs));
    report.cases = judge_cases(spec, plan, ran);
    // Races and uninitialised shared memory: the CPU backend runs the cases again, reversed and
    // with other initial contents of shared memory; the GPU, with other initial contents of shared
    // memory (schedule_race.hpp).
    if (!use_cuda) {
      stage_started = std::chrono::steady_clock::now();
      check_schedule_races(context.processes, spec, plan, run, ran, report.cases);
      spent.run += seconds_since(stage_started);
    } else if (shared_on_gpu) {
      stage_started = std::chrono::steady_clock::now();
      check_uninitialised_shared_on_gpu(context.processes, spec, plan, run, ran, zero_poison, report.cases);
      spent.run += seconds_since(stage_started);
    }
    // The runners started beside the cases load the first step that is timed now: that upload
    // overlaps the sanitizer's pass. Runners left unused (no step passed) end with `early`.
    std::vector<std::size_t> passing = passing_step_tasks(plan.job.timings, report.cases);
    if (!passing.empty()) early.load(passing.front());
    // Invalid accesses, races and uninitialised reads the GPU let pass: compute-sanitizer.
    const std::vector<std::string> tools = sanitizer_tools(options.submission);
    std::vector<std::string> unchecked;  // cases the sanitizer could not check
    if (use_cuda && options.sanitizer) {
      const SanitizerPass pass =
          run_sanitizer_pass(context.processes, spec, plan, run, ran, context.locations.compute_sanitizer, tools,
                             report.submission, report.cases,
                             [&] { say(options, "checking the cases under compute-sanitizer ..."); });
      spent.run += pass.seconds;
      report.notes.insert(report.notes.end(), pass.notes.begin(), pass.notes.end());
      unchecked = pass.unchecked;
    }
    turn.release();
    // A graded batch's cases that did not pass beside others, or that the sanitizer could not
    // check there, are run again with the GPU alone, and the runs alone count (alone_rerun.hpp);
    // the turn alone goes on into the timing.
    const bool again_alone = use_cuda && context.gpu_turns && context.failures_again_alone &&
                             !cases_not_passed(report.cases, unchecked).empty();
    // Alone only where a step is to be timed or a case run again: otherwise a turn alone would
    // empty the GPU of the other lanes' work for nothing.
    if (context.gpu_turns && (again_alone || (timed && !passing.empty()))) turn = context.gpu_turns->alone();
    if (again_alone) {
      say(options, "running the cases that did not pass beside other submissions again, with the GPU alone ...");
      CaseStages stages{shared_on_gpu, {}, tools, report.submission};
      if (options.sanitizer) stages.sanitizer = context.locations.compute_sanitizer;
      const AloneRerun alone =
          run_again_alone(context.processes, spec, plan, run, reference_runner, stages, report.cases, unchecked);
      spent.run += alone.seconds;
      report.notes.insert(report.notes.end(), alone.notes.begin(), alone.notes.end());
      passing = passing_step_tasks(plan.job.timings, report.cases);
      if (!timed || passing.empty()) turn.release();
    }
    stage_started = std::chrono::steady_clock::now();
    {
      const PinnedThread pinned(check_timing_cpus(options));  // the lock-step loop, and runners it starts
      out.timed_runs = time_passing_steps(context.processes, timing_run, plan.job.timings, report.cases,
                                         reference_runner, plan.layout.reference_timing, context.baselines.get(), &early);
    }
    spent.timing = seconds_since(stage_started);
    for (const std::string& line : describe_timings(plan.job.timings, out.timed_runs)) say(options, line);
    // Calibrating the ceilings uses the GPU, so it belongs to this half (once per GPU: cached).
    if (timed && !passing.empty()) out.ceilings = ceilings_for(context.processes, context.locations, device);
    // Why a step is slow: Nsight Compute's counters of one call of each side (advice, no points).
    if (timed && options.diagnosis && !passing.empty()) {
      stage_started = std::chrono::steady_clock::now();
      out.diagnoses =
          diagnose_timed_steps(context, options, run, reference_runner, plan, out.timed_runs, device, report.submission);
      spent.diagnosis = seconds_since(stage_started);
    }
  }
  // Every runner of the check has ended (the timing's too): the timed outputs are read next, by
  // the scoring, never through a link one of them planted.
  remove_planted_links(built.work_dir);
  out.built = std::move(built);
  return out;
}

GradeReport score_submission(const Spec& spec, const CheckOptions& options, RanSubmission ran, StageSeconds* seconds) {
  GradeReport report = std::move(ran.report);
  BuiltSubmission& built = ran.built;
  if (ran.ran) {
    const CasePlan& plan = *built.plan;
    // The full comparison of every timed output: CPU work, off the GPU's lane in a batch, each
    // step on a thread of its own (a 2048² output takes a sixth of a second to read and compare).
    std::vector<std::future<PerformanceResult>> judged;
    for (std::size_t i = 0; i < plan.timings.size(); ++i)
      judged.push_back(std::async(std::launch::async, [&, i] {
        return judge_timing(spec, plan.timings[i], plan.job.timings[i], ran.timed_runs.at(i), ran.ceilings);
      }));
    for (std::size_t i = 0; i < judged.size(); ++i) {
      report.performance.push_back(judged[i].get());
      // A diagnosis speaks of a correct step's speed only (a mismatch while timed earns nothing anyway).
      if (i < ran.diagnoses.size() && report.performance.back().outcome == Outcome::passed)
        report.performance.back().diagnosis = std::move(ran.diagnoses[i]);
    }
    if (!ran.timed) {
      mark_not_run(report, {}, spec.performance,
                   built.use_cuda ? "performance not measured (--no-performance)"
                                  : "performance is graded on a GPU only; this ran on the CPU backend");
    }
    add_cross_case_patterns(report, spec);
    show_student_file_names(report);
  }
  score_report(report, spec);
  if (!options.keep_work_dir && options.work_dir.empty()) {
    std::error_code ignored;
    fs::remove_all(built.work_dir, ignored);
  }
  if (seconds) *seconds = built.seconds;
  return report;
}

GradeReport run_and_score(const CheckContext& context, const Spec& spec, const Grader& grader,
                          const CheckOptions& options, BuiltSubmission built, StageSeconds* seconds) {
  return score_submission(spec, options, run_submission(context, spec, grader, options, std::move(built)), seconds);
}

GradeReport check_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options) {
  CheckContext lone = context;
  if (!lone.device && options.backend != Backend::cpu) lone.device = find_device(lone.processes, lone.locations);
  if (!lone.baselines) lone.baselines = std::make_shared<BaselineCache>();  // taken while the file builds
  if (!lone.counters) lone.counters = kept_counters(lone.device);
  // The GPU this process's CUDA calls device 0, one cugrade at a time, for each part that uses it:
  // the baselines taken while the file builds, then the run from its cases to its last timed or
  // profiled call (scoring needs no GPU). Each wait is said, and when it ended.
  std::mutex unclaimed_mutex;
  std::string unclaimed;
  if (options.backend != Backend::cpu && lone.device->present())
    lone.claim_turn = [&](const std::function<bool()>& give_up) -> std::optional<GpuClaim> {
      auto got = claim_gpu(*lone.device, 0, "0", options.progress, true, give_up);
      if (got && !got->held()) return std::nullopt;  // given up
      if (got) return std::move(*got);
      std::lock_guard lock(unclaimed_mutex);
      if (unclaimed.empty()) unclaimed = got.error().message;
      return std::nullopt;
    };
  BuiltSubmission built = build_for_lone_check(lone, spec, grader, options);
  // A build that failed runs nothing: it waits for no one.
  std::optional<GpuClaim> claim;
  if (lone.claim_turn && built.report.build.outcome == Outcome::passed) claim = lone.claim_turn({});
  RanSubmission ran = run_submission(lone, spec, grader, options, std::move(built));
  claim.reset();
  GradeReport report = score_submission(spec, options, std::move(ran));
  if (!unclaimed.empty()) report.notes.push_back(unclaimed_gpu_note(unclaimed));
  return report;
}

}  // namespace cugrade
