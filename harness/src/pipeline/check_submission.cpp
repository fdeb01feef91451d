#include "pipeline/check_submission.hpp"

#include <algorithm>
#include <future>
#include <mutex>
#include <optional>

#include "check/cross_case.hpp"
#include "device/gpu_claim.hpp"
#include "pipeline/build_for_check.hpp"
#include "pipeline/check_stages.hpp"
#include "pipeline/unset_reads.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/sentences.hpp"
#include "pipeline/source_quotes.hpp"
#include "pipeline/student_file_names.hpp"
#include "pipeline/verdicts.hpp"
#include "process/step_folder.hpp"
#include "report/not_run.hpp"
#include "score/score.hpp"

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
    const bool changed = std::any_of(of_step.begin(), of_step.end(), [](const CaseResult& c) {
      return says_results_change_between_runs(c.message);
    });
    const std::string line = cross_case_pattern(of_step, changed);
    if (line.empty()) continue;
    for (auto& c : report.cases)
      if (c.step == step.name && c.visibility == Visibility::visible && c.outcome == Outcome::wrong_answer) {
        append_sentence(c.message, "across the cases: " + line);
        break;
      }
  }
}

}  // namespace

RanSubmission run_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options, BuiltSubmission built) {
  RanSubmission out;
  out.report = std::move(built.report);
  out.timed = built.use_cuda && options.performance;
  out.ran = !mark_unrunnable(out.report, built, spec, out.timed);
  if (out.ran) {
    CheckRun check = start_run(context, spec, grader, options, built, out.report, out.timed);
    // Beside other lanes, the cases share the GPU; the timing waits for it alone (gpu_turns.hpp).
    GpuTurns::Turn turn = context.gpu_turns ? context.gpu_turns->shared() : GpuTurns::Turn{};
    RaceCheck races(check);     // on the GPU its first repeat rides in the cases' runner
    TimingStage timing(check);  // its runners may start beside the cases' runner
    const RunOutcome ran = run_cases(check, races, timing);      // 1. the cases, judged
    races.check(ran);                                            // 2. races, uninitialised shared memory
    timing.load_first_passing();                                 //    the timing loads, beside the sanitizer
    const SanitizerStage sanitized = run_sanitizer(check, ran);  // 3. compute-sanitizer
    again_alone(check, turn, races, sanitized, timing);          //    a batch's failures, the GPU alone
    out.timed_runs = timing.time_passing();                      // 4. the timing
    out.ceilings = calibrate(check, timing);                     // 5. the GPU's ceilings
    out.diagnoses = diagnose(check, timing, out.timed_runs);     // 6. why a step is slow
  }
  // Every runner of the check has ended (the timing's too): the timed outputs are read next, by
  // the scoring, never through a link one of them planted.
  remove_planted_links(built.work_dir);
  out.built = std::move(built);
  return out;
}

GradeReport score_submission(const CheckContext& context, const Spec& spec, const CheckOptions& options, RanSubmission ran,
                             StageSeconds* seconds) {
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
    name_unset_reads(context, spec, options, built, report);
    add_cross_case_patterns(report, spec);
    show_student_file_names(report);
    quote_student_lines(report, built.work_dir);
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
  return score_submission(context, spec, options, run_submission(context, spec, grader, options, std::move(built)), seconds);
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
  GradeReport report = score_submission(lone, spec, options, std::move(ran));
  if (!unclaimed.empty()) report.notes.push_back(unclaimed_gpu_note(unclaimed));
  return report;
}

}  // namespace cugrade
