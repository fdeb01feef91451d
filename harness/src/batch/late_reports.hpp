#pragma once
// Each student's reports under a late plan: the grade report stays the raw grading (a Gradescope
// or PrairieLearn upload applies that platform's own late policy), and a note says the standing,
// the penalty and the final score. Written with the class files, from the records: a policy given,
// changed or dropped on a later run rewrites exactly the reports it concerns.
#include <filesystem>
#include <vector>

#include "batch/late_plan.hpp"
#include "batch/student_record.hpp"
#include "core/result.hpp"

namespace cugrade {

/// OUT/.late-noted: the students (student_path_name, one a line) whose reports carry a late note.
std::filesystem::path late_noted_file(const std::filesystem::path& out);

/// Rewrites the reports (write_student_reports) of every student of `records` with a late note
/// under `plan` (lateness_note()), and of every student noted last time who has none now (their
/// reports back to the record's alone); then OUT/.late-noted. Null `plan`: notes are only removed.
Result<bool> write_lateness_notes(const std::filesystem::path& out, const std::vector<StudentRecord>& records,
                                  const LatePlan* plan);

}  // namespace cugrade
