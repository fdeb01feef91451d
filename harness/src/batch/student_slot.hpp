#pragma once
// One student on the way through a batch (grade_batch.cpp): what was found of their submission,
// its files made a folder and built, its run, and the record that says it is done.
#include <filesystem>
#include <optional>
#include <string>

#include "batch/archive.hpp"
#include "batch/grading_settings.hpp"
#include "batch/student_record.hpp"
#include "batch/submission_fingerprint.hpp"
#include "batch/submission_source.hpp"
#include "batch/submission_time.hpp"
#include "core/result.hpp"
#include "pipeline/check_submission.hpp"

namespace cugrade {

/// One student on the way through the batch.
struct StudentSlot {
  SubmissionSource source;
  Result<SubmissionFingerprint> print = fail("not read yet");
  std::string reason;                       ///< why it is graded now
  CheckOptions options;                     ///< its own submission and work folder
  std::optional<BuiltSubmission> built;     ///< after a build
  std::optional<RanSubmission> ran;         ///< after its run, until it is scored
  std::optional<GradeReport> early;         ///< a result known without running (nothing to build, a fault)
  std::optional<SubmissionTime> submitted;  ///< when it was handed in, once its files are found
  double unpack_seconds = 0.0;
};

/// Makes `slot`'s submission a folder of its files in `work` (emptied first: what a killed run
/// left behind), finds when it was handed in, and builds it (build_for_check, into work/build).
/// What cannot be built is the student's result in `slot.early`; a fault of the harness, ours.
void prepare_and_build(StudentSlot& slot, const std::filesystem::path& work, const CheckContext& context,
                       const Spec& spec, const Grader& grader, const UnpackLimits& unpack, bool use_cuda);

/// The record of `slot` graded as `report` in `seconds` with `settings`: where it came from, its
/// fingerprint, when it was handed in (the best evidence found; none for a submission of nothing).
StudentRecord student_record(const StudentSlot& slot, GradeReport report, const StageSeconds& seconds,
                             const GradingSettings& settings);

}  // namespace cugrade
