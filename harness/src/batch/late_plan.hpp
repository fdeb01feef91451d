#pragma once
// A class's deadlines and late policy applied to its students' records: what the gradebook, the
// class summary and each student's reports say of a late hand-in. Applied when the class files are
// written, never kept in a record: a policy changed later needs no student graded again.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "batch/extensions.hpp"
#include "batch/late_policy.hpp"
#include "batch/student_record.hpp"

namespace cugrade {

/// `--deadline` with `--late-policy` and/or `--extensions`.
struct LatePlan {
  std::int64_t deadline_unix = 0;   ///< the class's deadline
  /// What a late hand-in costs; none: nothing (extensions alone move the late flag).
  std::optional<LatePolicy> policy;
  Extensions extensions;            ///< students with a deadline of their own

  /// The deadline of `student`: their extension's, else the class's.
  std::int64_t deadline_of(const std::string& student) const;
};

/// One student's lateness as the class files show it.
struct StudentLateness {
  std::int64_t deadline_unix = 0;  ///< theirs (an extension's or the class's)
  bool extended = false;           ///< by an extension
  LateAssessment assessment;       ///< standing, days, percent
  /// Graded (not a harness error): the raw score, the penalty in points and the final score.
  std::optional<double> raw_score, penalty, final_score;
  /// Why the standing is time_unknown ("its only time is the files' modification times, ..."); else "".
  std::string unknown_because;
};

/// The hand-in time of `record` a penalty may rest on: a git commit, Gradescope's or Blackboard's
/// time, or the archive's entries; nullopt for file modification times (a copy's, not the
/// student's), Canvas's mark without a time, and nothing handed in. `why` then says which.
std::optional<std::int64_t> trusted_submission_time(const StudentRecord& record, std::string& why);

/// `record` judged by `plan` (no policy: a policy of no penalty). A harness error has a standing
/// but no raw, penalty or final score: a fault of cugrade is not a grade to take points from.
StudentLateness assess_student(const LatePlan& plan, const StudentRecord& record);

/// The note each report of a student gets under a plan ("Late: handed in 1 day 2 h after the
/// deadline ... final 7.2 of 10"); "" when the student was on time and has no extension.
std::string lateness_note(const LatePlan& plan, const StudentLateness& lateness, double max_score);

/// The class summary's late cell: "on time", "in grace", "late: −0.8 (10 %) → 7.2", "too late: 0",
/// "time unknown: not penalised".
std::string lateness_cell(const StudentLateness& lateness);

/// The gradebook's columns under a plan, after `late`: due, days_late, raw_score, penalty, late_outcome.
std::vector<std::string> lateness_header();

/// The row's values for lateness_header() (a harness error: no raw_score or penalty).
std::vector<std::string> lateness_fields(const StudentLateness& lateness);

/// One line for the console summary: the policy and how many graded students (a harness error is
/// no grade, and listed elsewhere) were in grace, penalised, too late, and of unknown time (never penalised, so named: "time unknown (not penalised; see gradebook.csv):
/// bob, carol"); "" without a plan.
std::string lateness_summary(const LatePlan& plan, const std::vector<StudentRecord>& records);

}  // namespace cugrade
