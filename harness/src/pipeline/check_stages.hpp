#pragma once
// The stages of a check's run, each with the optimisations that are its own, in the order
// run_submission (check_submission.cpp) calls them: the cases; the race check's runs; the
// sanitizer's pass (and, beside other lanes, a batch's failures again alone); the timing
// (timing_stage.hpp); the calibration; the diagnosis.
#include <optional>
#include <string>
#include <vector>

#include "device/ceilings.hpp"
#include "diagnose/diagnose_steps.hpp"
#include "pipeline/check_run.hpp"
#include "pipeline/gpu_turns.hpp"
#include "pipeline/timing_stage.hpp"

namespace cugrade {

/// Marks every case (and every step that was to be timed) not run where nothing can run: the
/// build failed, or the CUDA backend has no usable GPU. True when it did.
bool mark_unrunnable(GradeReport& report, const BuiltSubmission& built, const Spec& spec, bool timed);

/// The run of `built`, which will run: its plan (made here where it was built elsewhere than by
/// build_for_check), its runners' requests; says how many cases it runs and steps it times.
CheckRun start_run(const CheckContext& context, const Spec& spec, const Grader& grader, const CheckOptions& options,
                   BuiltSubmission& built, GradeReport& report, bool timed);

/// The race check (schedule_race.hpp): the cases again with other initial contents of shared
/// memory, on the CPU backend in reverse order too. On the GPU, where the sources mention
/// `__shared__`, its first repeat rides in the cases' own runner, after them (zero_poison_repeats):
/// one runner start fewer.
class RaceCheck {
 public:
  /// The race check of `check`.
  explicit RaceCheck(CheckRun& check);
  /// `cases` (the request of the cases' runner) with the repeats that ride in it, if any.
  RunRequest with_repeats(RunRequest cases) const;
  /// Takes the repeats' statuses out of `ran`, before its cases are judged.
  void take_repeats(RunOutcome& ran);
  /// Marks each judged case whose results change with the schedule or with shared memory's
  /// initial contents (its seconds added to the run's).
  void check(const RunOutcome& ran);
  /// Whether the GPU's repeats run (a run alone repeats them too).
  bool on_gpu() const { return shared_on_gpu_; }

 private:
  CheckRun& check_;
  bool shared_on_gpu_ = false;
  RunOutcome zero_poison_;  ///< the repeats' statuses (the GPU's run 2)
};

/// Stage 1: the cases in the student's runner, with the race check's repeats after them and the
/// timing's runners starting beside them; the reference's tasks in its own runner. The cases are
/// judged into the report; returns what the runners did.
RunOutcome run_cases(CheckRun& check, RaceCheck& races, TimingStage& timing);

/// What the sanitizer's stage leaves for a run alone.
struct SanitizerStage {
  std::vector<std::string> tools;      ///< the tools the sources call for (sanitizer_tools)
  std::vector<std::string> unchecked;  ///< the cases it could not check (SanitizerPass::unchecked)
  std::vector<std::string> clean = {};  ///< the cases it checked and found nothing in (SanitizerPass::clean)
};

/// Stage 3: compute-sanitizer over the sanitized cases (CUDA, not --no-sanitizer): its findings
/// into the cases, its notes into the report.
SanitizerStage run_sanitizer(CheckRun& check, const RunOutcome& ran);

/// Beside other lanes on one GPU (context.gpu_turns), after the sanitizer: the shared `turn` ends;
/// in a graded batch, the cases that did not pass there, or that the sanitizer could not check,
/// run again with the GPU alone and the runs alone count (alone_rerun.hpp). The GPU is had alone
/// only where a case runs again or a step is to be timed (otherwise a turn alone would empty it
/// of the other lanes' work for nothing), and that turn goes on into the timing.
void again_alone(CheckRun& check, GpuTurns::Turn& turn, const RaceCheck& races, const SanitizerStage& sanitizer,
                 TimingStage& timing);

/// Stage 5: this GPU's ceilings (measured once per GPU, then cached: GPU work, so it belongs to
/// the run), where a step is timed; else none.
std::optional<Ceilings> calibrate(const CheckRun& check, const TimingStage& timing);

/// Stage 6: why each timed step below full credit is slow, from Nsight Compute's counters of one
/// call of each side (advice, no points; options.diagnosis); the profiles in a folder of their own.
std::vector<std::optional<PerformanceDiagnosis>> diagnose(CheckRun& check, const TimingStage& timing,
                                                          const std::vector<TimingOutcome>& timed);

}  // namespace cugrade
