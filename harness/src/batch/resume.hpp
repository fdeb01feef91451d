#pragma once
// Which students a batch grades: a restarted batch grades only what is missing or out of date,
// and says why for each one it grades again.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "batch/student_record.hpp"
#include "batch/submission_fingerprint.hpp"
#include "core/result.hpp"

namespace cugrade {

/// `--regrade`: everyone, or the students named.
struct RegradeSelection {
  bool all = false;                ///< everyone
  std::set<std::string> students;  ///< these students (when not all)

  /// True when `student` is to be graded again whatever its record says.
  bool includes(const std::string& student) const { return all || students.contains(student); }
};

/// `--regrade` as given: absent (nullopt), empty ("" = everyone), "alice,bob", or one student's
/// whole id, commas and all ("smith, john"). A name with no submission is an error naming the
/// nearest student id, so a typo does not go unnoticed.
Result<RegradeSelection> parse_regrade(const std::optional<std::string>& value,
                                       const std::vector<SubmissionSource>& submissions);

/// Whether to grade one student, and why.
struct GradeDecision {
  bool grade = true;
  std::string reason;  ///< "not graded yet", "its files changed since it was graded", ...
  bool again = false;  ///< graded although an earlier result exists (the log says why)
};

/// The decision for a submission with fingerprint `now` (an error when it could not be read),
/// graded now with `settings`, and the record of an earlier run (an error when there is none or
/// it is unreadable). Graded: no record; an unreadable record; --regrade; files changed; an
/// earlier submission that could not be read; a record graded otherwise (another assignment,
/// spec, course secret, backend, build of cugrade, ...: grading_settings.hpp); an earlier
/// harness error (a fault of ours is retried, never kept as a grade).
GradeDecision decide_grading(const std::string& student, const Result<SubmissionFingerprint>& now,
                             const Result<std::optional<StudentRecord>>& previous, const RegradeSelection& regrade,
                             const GradingSettings& settings);

}  // namespace cugrade
