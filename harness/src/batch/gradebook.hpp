#pragma once
// gradebook.csv: one row per student, for a spreadsheet or a learning-management system's import
// (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line break quoted).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/late_plan.hpp"
#include "batch/student_record.hpp"
#include "report/report_format.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What the gradebook shows beyond the grades.
struct GradebookOptions {
  /// The deadline (seconds since the epoch): adds submitted_at, submitted_from and late columns.
  /// Late means the submission's time (StudentRecord::submitted_unix: its last git commit,
  /// Gradescope's metadata, the archive's entries or its files, as submitted_from says) is after it.
  std::optional<std::int64_t> deadline_unix;
  /// Students present with no result yet (a batch stopped before them): each a row of their own,
  /// with no score, saying so, so that a gradebook is never short of students without a word.
  std::vector<std::string> not_graded;
  /// --late-policy/--extensions (batch/late_plan.hpp): the late flag against each student's own
  /// deadline, the columns due, days_late, raw_score, penalty and late_outcome after it, and
  /// score the final score (raw_score − penalty). Null: none.
  const LatePlan* late = nullptr;
};

/// The points `report` earned in `step` (its cases and performance targets together).
double step_points(const GradeReport& report, const std::string& step);

/// One CSV field: as it is, or in double quotes (inner quotes doubled) when it holds a comma, a
/// quote, a line break or leading/trailing spaces.
std::string csv_field(std::string_view text);

/// A text cell a spreadsheet must show as text: a student id or a note starting with '=', '+',
/// '-', '@', a tab or a carriage return is read as a formula by Excel and LibreOffice (CSV
/// injection), so it gets a leading apostrophe; any other text is returned as it is.
std::string spreadsheet_text(std::string_view text);

/// The whole gradebook, rows in the order of `records`, points as reports show them (format_points). Columns: student, score, max_score, one
/// column of points per step of the assignment (its cases and performance together), outcome,
/// gradable (yes/no), [submitted_at, submitted_from, late (yes/no)], [due, days_late, raw_score,
/// penalty, late_outcome: under a LatePlan, score then being the final], note (why it was not graded, or how many
/// cases failed). A harness error leaves score and step columns empty: a fault of cugrade is
/// not a grade.
std::string render_gradebook(const Spec& spec, const std::vector<StudentRecord>& records,
                             const GradebookOptions& options);

}  // namespace cugrade
