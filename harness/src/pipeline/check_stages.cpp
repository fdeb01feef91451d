#include "pipeline/check_stages.hpp"

#include <chrono>

#include <fmt/format.h>

#include "build/staging.hpp"
#include "diagnose/ncu_command.hpp"
#include "pipeline/alone_rerun.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/run_requests.hpp"
#include "pipeline/sanitizer_pass.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/stage_progress.hpp"
#include "pipeline/verdicts.hpp"
#include "report/not_run.hpp"
#include "run/reference_runs.hpp"

namespace cugrade {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool mark_unrunnable(GradeReport& report, const BuiltSubmission& built, const Spec& spec, bool timed) {
  if (report.build.outcome != Outcome::passed) {
    mark_not_run(report, built.cases, timed ? spec.performance : std::vector<PerformanceTarget>{},
                 "not run: the build failed");
    return true;
  }
  if (built.use_cuda && !built.device.present()) {
    mark_not_run(report, built.cases, spec.performance,
                 "not run: no GPU is usable here (" + built.device.error +
                     "); the file compiled with nvcc. Run with --backend cpu to check correctness without a GPU");
    return true;
  }
  return false;
}

CheckRun start_run(const CheckContext& context, const Spec& spec, const Grader& grader, const CheckOptions& options,
                   BuiltSubmission& built, GradeReport& report, bool timed) {
  if (!built.plan) {  // built elsewhere than by build_for_check
    const auto started = Clock::now();
    built.plan = plan_cases(spec, grader, built.cases, timed ? spec.performance : std::vector<PerformanceTarget>{},
                            built.work_dir, context.materials.get());
    built.seconds.inputs = seconds_since(started);
  }
  say(options, "running " + std::to_string(built.cases.size()) + " cases" +
                   (timed ? " and timing " + std::to_string(spec.performance.size()) + " steps" : "") + " ...");
  return CheckRun{context,
                  spec,
                  options,
                  *built.plan,
                  built.device,
                  built.use_cuda,
                  timed,
                  student_run_request(spec, *built.plan, built.runner, built.use_cuda, options),
                  context.locations.reference_runner(spec.id, built.use_cuda),
                  report,
                  built.seconds};
}

// On the GPU, the cases run a second time with shared memory starting as 0x00 in the same
// runner, after the first (schedule_race.hpp).
RaceCheck::RaceCheck(CheckRun& check)
    : check_(check), shared_on_gpu_(check.use_cuda && mentions_shared_memory(check.options.submission)) {}

RunRequest RaceCheck::with_repeats(RunRequest cases) const {
  if (shared_on_gpu_)
    for (CheckTask& repeat : zero_poison_repeats(check_.run.job, check_.run.work_dir / "poison-00"))
      cases.job.checks.push_back(std::move(repeat));
  return cases;
}

void RaceCheck::take_repeats(RunOutcome& ran) { zero_poison_ = cugrade::take_repeats(ran); }

void RaceCheck::check(const RunOutcome& ran) {
  if (check_.use_cuda && !shared_on_gpu_) return;
  const auto started = Clock::now();
  if (!check_.use_cuda)  // reversed, and with other initial contents of shared memory
    check_schedule_races(check_.context.processes, check_.spec, check_.plan, check_.run, ran, check_.report.cases);
  else
    check_uninitialised_shared_on_gpu(check_.context.processes, check_.spec, check_.plan, check_.run, ran,
                                      zero_poison_, check_.report.cases);
  check_.spent.run += seconds_since(started);
}

RunOutcome run_cases(CheckRun& check, RaceCheck& races, TimingStage& timing) {
  const RunRequest cases = timing.start_beside(races.with_repeats(check.run));
  const auto started = Clock::now();
  RunOutcome ran =
      run_job_with_reference(check.context.processes, cases, check.reference_runner, check.plan.layout.reference);
  timing.cases_ended();
  races.take_repeats(ran);
  name_cases_in_messages(ran, check.plan);
  check.spent.run = seconds_since(started);
  say(check.options, fmt::format("ran the cases in {:.1f} s (build {:.1f} s, inputs and gold {:.1f} s)",
                                 check.spent.run, check.spent.build, check.spent.inputs));
  check.report.cases = judge_cases(check.spec, check.plan, ran);
  return ran;
}

SanitizerStage run_sanitizer(CheckRun& check, const RunOutcome& ran) {
  SanitizerStage stage{sanitizer_tools(check.options.submission), {}};
  // Beside other submissions, a race's further cases wait for the run alone, which repeats them anyway.
  const bool after_race_alone = check.context.gpu_turns && check.context.failures_again_alone;
  if (!check.use_cuda || !check.options.sanitizer) return stage;
  const SanitizerPass pass = run_sanitizer_pass(
      check.context.processes, check.spec, check.plan, check.run, ran, check.context.locations.compute_sanitizer,
      stage.tools, check.report.submission, check.report.cases,
      [&] { say(check.options, "checking the cases under compute-sanitizer ..."); }, after_race_alone);
  check.spent.run += pass.seconds;
  check.report.notes.insert(check.report.notes.end(), pass.notes.begin(), pass.notes.end());
  stage.unchecked = pass.unchecked;
  stage.clean = pass.clean;
  return stage;
}

void again_alone(CheckRun& check, GpuTurns::Turn& turn, const RaceCheck& races, const SanitizerStage& sanitizer,
                 TimingStage& timing) {
  turn.release();
  const auto& turns = check.context.gpu_turns;
  const bool again = check.use_cuda && turns && check.context.failures_again_alone &&
                     !cases_not_passed(check.report.cases, sanitizer.unchecked).empty();
  if (turns && (again || (check.timed && timing.any_passing()))) turn = turns->alone();
  if (!again) return;
  say(check.options, "running the cases that did not pass beside other submissions again, with the GPU alone ...");
  CaseStages stages{races.on_gpu(), {}, sanitizer.tools, check.report.submission, sanitizer.clean};
  if (check.options.sanitizer) stages.sanitizer = check.context.locations.compute_sanitizer;
  const AloneRerun alone = run_again_alone(check.context.processes, check.spec, check.plan, check.run,
                                           check.reference_runner, stages, check.report.cases, sanitizer.unchecked);
  check.spent.run += alone.seconds;
  check.report.notes.insert(check.report.notes.end(), alone.notes.begin(), alone.notes.end());
  timing.count_passing();
  if (!check.timed || !timing.any_passing()) turn.release();
}

std::optional<Ceilings> calibrate(const CheckRun& check, const TimingStage& timing) {
  if (!check.timed || !timing.any_passing()) return std::nullopt;
  return ceilings_for(check.context.processes, check.context.locations, check.device);
}

std::vector<std::optional<PerformanceDiagnosis>> diagnose(CheckRun& check, const TimingStage& timing,
                                                          const std::vector<TimingOutcome>& timed) {
  if (!check.timed || !check.options.diagnosis || !timing.any_passing()) return {};
  const auto started = Clock::now();
  DiagnosisRequest request;
  request.ncu = find_ncu(check.context.locations);
  request.student = check.run;
  request.student.inputs_release_dir.clear();  // the timing's inputs, which it profiles, in their folder
  request.student.read_only = {check.plan.layout.inputs};
  request.reference_runner = check.reference_runner;
  request.work_dir = check.plan.layout.run.parent_path() / "diagnose";
  // Where the build staged the files, for the line a cause comes from (unless not asked for).
  if (check.options.diagnosis_lines) request.sources = check.plan.layout.run.parent_path() / std::string(staging_folder);
  request.source_names = check.report.submission;
  request.gpu = check.device.name;
  if (const auto it = check.run.environment.find("CUDA_VISIBLE_DEVICES"); it != check.run.environment.end())
    request.gpu += " #" + it->second;
  request.progress = check.options.progress;
  request.steps = check.options.diagnosed_steps;
  request.reference_steps_ahead = check.options.reference_steps_ahead;
  std::vector<PerformanceTarget> targets;
  for (const auto& t : check.plan.timings) targets.push_back(t.target);
  auto diagnoses = diagnose_slow_steps(check.context.processes, request, check.plan.job.timings, timed, targets,
                                       check.context.counters.get());
  check.spent.diagnosis = seconds_since(started);
  return diagnoses;
}

}  // namespace cugrade
