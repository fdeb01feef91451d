#pragma once
// The build stage of a check (check_submission.hpp's build_for_check): the report's heading, the
// sealed build on either backend, and the case plan (inputs and gold); for a check on its own,
// the reference's timing baselines taken while the file builds.
#include "build/build_request.hpp"
#include "pipeline/check_submission.hpp"

namespace cugrade {

/// The build of `options.submission` for the CPU backend, in `work_dir` (g++, or $CXX).
BuildRequest cpu_build_request(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                               const std::filesystem::path& work_dir);

/// build_for_check for a check on its own (a baseline cache in `context`): the inputs and gold
/// are planned, and the reference's timing baselines taken, while the file builds. nvcc leaves the
/// GPU idle and no process of the student's can reach it, so a baseline taken then is as clean as
/// one taken just before the timing, and the check no longer waits for it.
BuiltSubmission build_for_lone_check(const CheckContext& context, const Spec& spec, const Grader& grader,
                                     const CheckOptions& options);

}  // namespace cugrade
