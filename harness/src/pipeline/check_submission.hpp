#pragma once
// The whole flow for one submission (design.md §3): build → generate inputs and gold → run in the
// sandboxed runner → check → time → score. Each stage is a function over plain structs; only
// this file knows their order.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/locations.hpp"
#include "device/device_info.hpp"
#include "graders/grader.hpp"
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
  std::optional<std::uint64_t> course_secret;     ///< enables hidden cases
  bool performance = true;                        ///< time the performance targets (CUDA only)
  /// Also run the cases of reference-only steps, through the reference's own functions (the
  /// self-test's reference entry: every reference kernel checked against the gold).
  bool reference_only_steps = false;
  std::filesystem::path work_dir;                 ///< empty = a fresh temporary folder
  bool keep_work_dir = false;                     ///< keep the folder (for debugging a runner)
  std::function<void(const std::string&)> progress;  ///< status lines while it works; may be empty
};

/// The collaborators of a check.
struct CheckContext {
  ProcessRunner& processes;
  Locations locations;
  std::optional<DeviceInfo> device = std::nullopt;  ///< already probed (once for many checks); else probed per check
};

/// Grades one submission of `spec` end to end. Never throws for bad student input: every
/// failure becomes an outcome in the report; faults of the harness become harness_error.
GradeReport check_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                             const CheckOptions& options);

}  // namespace cugrade
