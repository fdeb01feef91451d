#pragma once
// Reports for submissions the pipeline never finished: one with nothing to build (the student's
// problem, told plainly) and one cugrade failed on (ours, never counted against the student).
#include <string>

#include "pipeline/check_submission.hpp"

namespace cugrade {

/// A submission that never reached the build (an empty folder, an archive that cannot be
/// unpacked): outcome not_run, not gradable, every case not run, 0 of the maximum a graded
/// submission has on this backend (performance included on CUDA unless switched off); `why`
/// is the build message.
GradeReport unbuildable_report(const Spec& spec, const CheckOptions& options, bool use_cuda, const std::string& why);

/// A submission whose grading failed through a fault of cugrade's: outcome harness_error, no
/// score, `why` in the notes.
GradeReport harness_failure_report(const Spec& spec, const CheckOptions& options, bool use_cuda, const std::string& why);

}  // namespace cugrade
