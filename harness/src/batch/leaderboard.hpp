#pragma once
// The class's speed leaderboard, OUT/leaderboard.html and OUT/leaderboard.csv, made from the
// students' records alone (so a local batch and a `--collect` of a Slurm-graded class write the
// same one): per timed step of the assignment, the times that count
// (report/leaderboard_entries.hpp) ranked fastest first, under pseudonyms (batch/pseudonym.hpp)
// unless the students' ids are asked for.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/student_record.hpp"
#include "core/course_secret.hpp"
#include "core/result.hpp"
#include "report/leaderboard_page.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// How the leaderboard names students.
struct LeaderboardOptions {
  std::optional<CourseSecret> secret;  ///< pseudonyms are keyed by it; without it only real_names can name anyone
  bool real_names = false;             ///< `--leaderboard-names`: the students' ids instead of pseudonyms
};

/// Each student's name on the leaderboard of `records`, where it is a pseudonym: class_pseudonyms()
/// of their ids under the course secret, when `spec` has a timed step, the secret is given and the
/// students' ids are not asked for; else none. The leaderboard and each student's own reports
/// (batch/class_notes.hpp) take the names from here, so they always agree.
std::map<std::string, std::string> leaderboard_pseudonyms(const Spec& spec, const std::vector<StudentRecord>& records,
                                                          const LeaderboardOptions& options);

/// The line a student's own reports carry: their name on the leaderboard, and when a time counts.
std::string leaderboard_note(const std::string& pseudonym);

/// The leaderboard of `records` (one per student) for `spec`'s timed steps: equal times share a
/// rank, and rows of equal time are ordered by name, so the same results give the same board.
Leaderboard make_leaderboard(const Spec& spec, const std::vector<StudentRecord>& records,
                             const LeaderboardOptions& options);

/// leaderboard.csv: a header, then one row per place on a board: board, step, size, rank,
/// student, time_ms, reference_ms, ratio, rate, rate_unit (times as exact as the records hold them).
std::string render_leaderboard_csv(const Leaderboard& leaderboard);

/// Writes `out`/leaderboard.html and `out`/leaderboard.csv atomically.
Result<bool> write_leaderboard(const std::filesystem::path& out, const Spec& spec,
                               const std::vector<StudentRecord>& records, const LeaderboardOptions& options);

}  // namespace cugrade
