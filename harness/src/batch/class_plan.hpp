#pragma once
// Who of a class a batch grades now: the class's submissions listed (and what was skipped said),
// then, from what an earlier run left, each student graded now or kept (resume.hpp).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "batch/grade_batch.hpp"
#include "batch/grading_settings.hpp"
#include "batch/regrade_diff.hpp"
#include "batch/resume.hpp"
#include "batch/student_slot.hpp"
#include "batch/submission_source.hpp"
#include "core/result.hpp"

namespace cugrade {

/// A batch's line for the TA.
using BatchLog = std::function<void(const std::string& line)>;

/// The submissions of `options.submissions` (`options.out` among them is not a student), each
/// skipped entry and each LMS's download said through `log`. An error where it holds no
/// submission: the wrong folder (one student's, the class's parent), never an empty class to
/// write a gradebook for; the message says what to give (`assignment`'s check of one file).
Result<SubmissionListing> list_class(const BatchOptions& options, const std::string& assignment, const BatchLog& log);

/// Who of a class is graded now.
struct ClassPlan {
  std::vector<std::string> students;  ///< every student of the class (of its shard), graded now or not
  std::vector<StudentSlot> slots;     ///< those graded now, each with its own check options
  std::size_t up_to_date = 0;         ///< those whose earlier result stands
};

/// Decides, from the records in `options.out`, who of `submissions` (of `options.shard`) is
/// graded now with `settings` and why; `log` says who is graded again (one line for a
/// `--regrade` of everyone); `regrade_diff` remembers the earlier record of each one graded now.
ClassPlan plan_class(const std::vector<SubmissionSource>& submissions, const BatchOptions& options,
                     const RegradeSelection& regrade, const GradingSettings& settings, const BatchLog& log,
                     RegradeDiff& regrade_diff);

}  // namespace cugrade
