#pragma once
// What the class adds to each student's reports once everyone is graded: under a late plan, the
// standing, the penalty and the final score (the grade report stays the raw grading: a Gradescope
// or PrairieLearn upload applies that platform's own late policy); where a leaderboard names
// students by pseudonyms, the student's own, so they can find themself on it and no one else.
// Written with the class files, from the records: a policy or secret given, changed or dropped on
// a later run rewrites exactly the reports it concerns.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "batch/late_plan.hpp"
#include "batch/student_record.hpp"
#include "core/result.hpp"

namespace cugrade {

/// What the class says to its students.
struct ClassNotes {
  const LatePlan* late = nullptr;                 ///< the late plan, if any (lateness_note())
  std::map<std::string, std::string> pseudonyms;  ///< each student's leaderboard name (leaderboard_pseudonyms()); empty: none
};

/// OUT/.noted: the students (student_path_name, one a line) whose reports carry a class note.
std::filesystem::path class_noted_file(const std::filesystem::path& out);

/// The notes `record`'s reports get from the class: its late note, then its leaderboard name.
std::vector<std::string> class_notes_of(const ClassNotes& notes, const StudentRecord& record);

/// Rewrites the reports (write_student_reports) of every student of `records` with a class note,
/// and of every student noted last time who has none now (their reports back to the record's
/// alone); then OUT/.noted. No plan and no pseudonyms: notes are only removed.
Result<bool> write_class_notes(const std::filesystem::path& out, const std::vector<StudentRecord>& records,
                               const ClassNotes& notes);

}  // namespace cugrade
