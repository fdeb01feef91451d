#pragma once
// The whole flow for one submission (design.md §3): build → generate inputs and gold → run in the
// sandboxed runner → check → time → score. Each stage is a function over plain structs; only
// this file knows their order. It comes in three parts, build_for_check(), run_submission() and
// score_submission(), so that batch grading can build and score many submissions in parallel
// while only what needs the GPU goes one at a time on it; check_submission() is the three back
// to back (run_and_score() the last two).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/course_secret.hpp"
#include "core/locations.hpp"
#include "device/ceilings.hpp"
#include "device/device_info.hpp"
#include "device/gpu_claim.hpp"
#include "diagnose/counter_cache.hpp"
#include "graders/grader.hpp"
#include "pipeline/case_plan.hpp"
#include "pipeline/gpu_turns.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"
#include "run/lockstep_timing.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Which machinery runs the student's code.
enum class Backend { automatic, cuda, cpu };

/// "auto", "cuda", "cpu".
std::string to_string(Backend backend);

/// What a user asked for.
struct CheckOptions {
  std::vector<std::filesystem::path> submission;  ///< the student's .cu files
  Backend backend = Backend::automatic;           ///< automatic: the GPU when usable, else the CPU
  std::string arch;                               ///< "sm_90"; empty = the GPU's own
  std::optional<CourseSecret> course_secret;      ///< enables hidden cases (their seeds are keyed by it)
  bool performance = true;                        ///< time the performance targets (CUDA only)
  /// Run the spec's sanitized cases (the visible ones by default) again under compute-sanitizer
  /// (CUDA only; pipeline/sanitizer_pass.hpp).
  bool sanitizer = true;
  /// Profile each timed step that earns less than full credit, and the reference's, with Nsight
  /// Compute and name the cause (harness/src/diagnose/; CUDA only; advice, never points).
  bool diagnosis = true;
  /// The steps the diagnosis may profile (the self-test: those its expectation names a cause
  /// for; a profile nothing is judged on is GPU time spent for nothing); empty: every slow step.
  std::set<std::string> diagnosed_steps;
  /// Steps whose reference counters a diagnosis that profiles the reference anyway takes in the
  /// same run, kept for the checks after it (the self-test: every step its assignment's entries
  /// diagnose, one ncu run for the reference where there were one per entry); empty: none.
  std::set<std::string> reference_steps_ahead;
  /// Look for the line a diagnosed cause comes from (one more profile of the student's code for
  /// each step whose cause lives on a line: ncu's source page). The self-test, which judges the
  /// causes and not the lines (gpu/diagnosis_line judges a line), leaves it out.
  bool diagnosis_lines = true;
  /// Also run the cases of reference-only steps, through the reference's own functions (the
  /// self-test's reference entry: every reference kernel checked against the gold).
  bool reference_only_steps = false;
  std::filesystem::path work_dir;                 ///< empty = a fresh temporary folder
  bool keep_work_dir = false;                     ///< keep the folder (for debugging a runner)
  std::function<void(const std::string&)> progress;  ///< status lines while it works; may be empty
  /// Set in the runner's environment on top of the scrubbed one (batch grading: the GPU a worker
  /// owns as CUDA_VISIBLE_DEVICES, the CPU backend's CUGRADE_CPU_THREADS).
  std::map<std::string, std::string> runner_environment;
  /// The GPU lane this check runs on, of how many (a batch's; a lone check: 0 of 1): the two
  /// CPUs its timing keeps to (process/cpu_affinity.hpp, timing_cpus).
  std::size_t lane = 0, lanes = 1;
};

/// The collaborators of a check.
struct CheckContext {
  ProcessRunner& processes;
  Locations locations;
  std::optional<DeviceInfo> device = std::nullopt;  ///< already probed (once for many checks); else probed per check
  /// Inputs and gold made once for many checks of one spec (a batch, a self-test); null: made per check.
  std::shared_ptr<CaseMaterials> materials = nullptr;
  /// The reference's timing baselines kept for many checks (a batch, a self-test); null: taken per check.
  std::shared_ptr<BaselineCache> baselines = nullptr;
  /// The reference's counters kept for many checks (diagnosis); null: profiled per check.
  std::shared_ptr<CounterCache> counters = nullptr;
  /// The turns of the lanes that share this check's GPU (a self-test's): the cases and the
  /// sanitizer's pass in a shared turn, the timing and the diagnosis alone, and no timing runner
  /// started early. Null: the check has its GPU to itself.
  std::shared_ptr<GpuTurns> gpu_turns = nullptr;
  /// With gpu_turns: every case that did not pass beside the other lanes is run again with the GPU
  /// alone, and the run alone counts (a graded batch: a neighbour never costs a point;
  /// alone_rerun.hpp). False: the first run counts (the self-test grades a missed entry again).
  bool failures_again_alone = false;
  /// A lone check's claim of its GPU against other cugrade processes (device/gpu_claim.hpp),
  /// taken by each part that uses the GPU for as long as it does: the reference's baselines beside
  /// the build, then the run. The build itself needs no GPU, so checks side by side build side by
  /// side. Its argument, when given, can end the wait (the baselines of a file that did not
  /// build). Nothing where the wait was given up or the GPU could not be claimed (said by the one
  /// who made it). Null: no claim here (a batch claims its lanes itself).
  std::function<std::optional<GpuClaim>(const std::function<bool()>& give_up)> claim_turn = nullptr;
};

/// Wall-clock seconds of the stages of one check (batch grading sums them: where the time goes).
struct StageSeconds {
  double build = 0.0;   ///< compile, symbol check and link (and nvcc's check on the CPU backend)
  double inputs = 0.0;  ///< generating the inputs and computing the gold
  double run = 0.0;     ///< the runner's correctness cases (restarts and the CPU race re-run included)
  double timing = 0.0;  ///< the runner's timed performance tasks
  double diagnosis = 0.0;  ///< profiling the slow steps with Nsight Compute
};

/// A submission after the build stage, holding what the run stage needs.
struct BuiltSubmission {
  GradeReport report;              ///< submission, seed, environment, notes and build filled in
  std::vector<Case> cases;         ///< the expanded cases
  DeviceInfo device;               ///< the GPU it runs on (none on the CPU backend)
  bool use_cuda = false;           ///< the CUDA backend; false: the CPU backend
  std::filesystem::path runner;    ///< the runner binary when the build passed
  std::filesystem::path work_dir;  ///< its private folder (objects, runner, inputs, outputs)
  std::optional<CasePlan> plan;    ///< inputs written and gold computed, when it will run
  std::vector<Diagnostic> unset_reads;  ///< the CPU backend's warnings of reads before a variable is set
  StageSeconds seconds;            ///< the build's and the inputs' time filled in
};

/// The first half of check_submission: picks the backend, describes the submission, builds it in
/// its own work folder and, when it will run, writes its inputs and computes the gold. Needs no
/// GPU time, so many may run in parallel.
BuiltSubmission build_for_check(const CheckContext& context, const Spec& spec, const Grader& grader,
                                const CheckOptions& options);

/// A submission after its run: its cases judged, its timed runs not yet (their outputs are
/// compared in full when it is scored).
struct RanSubmission {
  GradeReport report;                     ///< the cases judged; no performance results yet
  BuiltSubmission built;                  ///< its plan, work folder and stage times
  bool ran = false;                       ///< false: nothing ran (the build failed, no GPU)
  bool timed = false;                     ///< performance was measured
  std::vector<TimingOutcome> timed_runs;  ///< per performance target
  std::optional<Ceilings> ceilings;       ///< this GPU's, when a target was timed
  /// Per performance target: why it is slow, for those below full credit (options.diagnosis).
  std::vector<std::optional<PerformanceDiagnosis>> diagnoses;
};

/// The second half's GPU part: runs and checks the cases and times the performance targets. A
/// batch runs it on a GPU lane; what is left needs no GPU.
RanSubmission run_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options, BuiltSubmission built);

/// The rest: judges the timed runs (every timed output compared in full), names a variable read
/// before it is set where results changed between runs (pipeline/unset_reads.hpp), scores, and
/// removes the work folder unless asked to keep it. `seconds`, when given, receives every stage's time.
GradeReport score_submission(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                             RanSubmission ran, StageSeconds* seconds = nullptr);

/// The second half: run_submission, then score_submission. `seconds`, when given, receives the time of every stage (the
/// build's and the inputs' included).
GradeReport run_and_score(const CheckContext& context, const Spec& spec, const Grader& grader,
                          const CheckOptions& options, BuiltSubmission built, StageSeconds* seconds = nullptr);

/// The reference's timing baselines of `spec`'s performance targets, taken now into
/// `context.baselines` (on the GPU `options.runner_environment` names), planned and run in
/// `work_dir`: for a time when the GPU is idle and no process of a student's can use it, as a
/// batch's while its first files build; its first checks then find them kept. The seconds it
/// took; 0 where nothing is timed (no cache, no GPU, --no-performance, no target).
double take_baselines_now(const CheckContext& context, const Spec& spec, const Grader& grader,
                          const CheckOptions& options, const std::filesystem::path& work_dir);

/// Grades one submission of `spec` end to end. Never throws for bad student input: every
/// failure becomes an outcome in the report; faults of the harness become harness_error.
GradeReport check_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options);

}  // namespace cugrade
