#pragma once
// The whole flow for one submission (design.md §3): build → generate inputs and gold → run in the
// sandboxed runner → check → time → score. Each stage is a function over plain structs; only
// this file knows their order. It comes in two halves with one seam, build_for_check() and
// run_and_score(), so that batch grading can build many submissions in parallel while runs on a
// GPU go one at a time; check_submission() is the two halves back to back.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/course_secret.hpp"
#include "core/locations.hpp"
#include "device/device_info.hpp"
#include "graders/grader.hpp"
#include "pipeline/case_plan.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"
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
  /// Also run the cases of reference-only steps, through the reference's own functions (the
  /// self-test's reference entry: every reference kernel checked against the gold).
  bool reference_only_steps = false;
  std::filesystem::path work_dir;                 ///< empty = a fresh temporary folder
  bool keep_work_dir = false;                     ///< keep the folder (for debugging a runner)
  std::function<void(const std::string&)> progress;  ///< status lines while it works; may be empty
  /// Set in the runner's environment on top of the scrubbed one (batch grading: the GPU a worker
  /// owns as CUDA_VISIBLE_DEVICES, the CPU backend's CUGRADE_CPU_THREADS).
  std::map<std::string, std::string> runner_environment;
};

/// The collaborators of a check.
struct CheckContext {
  ProcessRunner& processes;
  Locations locations;
  std::optional<DeviceInfo> device = std::nullopt;  ///< already probed (once for many checks); else probed per check
  /// Inputs and gold made once for many checks of one spec (a batch, a self-test); null: made per check.
  std::shared_ptr<CaseMaterials> materials = nullptr;
};

/// Wall-clock seconds of the stages of one check (batch grading sums them: where the time goes).
struct StageSeconds {
  double build = 0.0;   ///< compile, symbol check and link (and nvcc's check on the CPU backend)
  double inputs = 0.0;  ///< generating the inputs and computing the gold
  double run = 0.0;     ///< the runner's correctness cases (restarts and the CPU race re-run included)
  double timing = 0.0;  ///< the runner's timed performance tasks
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
  StageSeconds seconds;            ///< the build's and the inputs' time filled in
};

/// The first half of check_submission: picks the backend, describes the submission, builds it in
/// its own work folder and, when it will run, writes its inputs and computes the gold. Needs no
/// GPU time, so many may run in parallel.
BuiltSubmission build_for_check(const CheckContext& context, const Spec& spec, const Grader& grader,
                                const CheckOptions& options);

/// The second half: runs, checks, times and scores a built submission, then removes its work
/// folder unless asked to keep it. `seconds`, when given, receives the time of every stage (the
/// build's and the inputs' included).
GradeReport run_and_score(const CheckContext& context, const Spec& spec, const Grader& grader,
                          const CheckOptions& options, BuiltSubmission built, StageSeconds* seconds = nullptr);

/// Grades one submission of `spec` end to end. Never throws for bad student input: every
/// failure becomes an outcome in the report; faults of the harness become harness_error.
GradeReport check_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options);

}  // namespace cugrade
