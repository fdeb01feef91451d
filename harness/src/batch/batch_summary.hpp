#pragma once
// The summary a batch prints when it ends: how many, which outcomes, the mean score, where the
// time went (so a TA can tell whether builds or the GPU limit the rate) and where the files are.
#include <string>

#include "batch/grade_batch.hpp"
#include "batch/leaderboard.hpp"

namespace cugrade {

/// When most of a class failed to build with the same message (each student's own id and folder
/// name taken out), it is more likely the set-up (a path, the toolchain) than the students: a
/// line saying so, naming the count and the message; empty otherwise (fewer than 2, or not more
/// than half of `records`).
std::string common_build_failure(const std::vector<StudentRecord>& records);

/// Counts the gradebook's `records` into `summary`: the students, their outcomes, the harness
/// errors ("alice: <why>"), the gradable ones and their mean score, the most any could have, the
/// ones not gradable ("bob (compile_error)") and the set-up problem (common_build_failure).
void count_records(const std::vector<StudentRecord>& records, BatchSummary& summary);

/// The line under summary.html's title: how many were graded on which backend, the set-up
/// warning (common_build_failure) and how many a stopped batch left, where there are any.
std::string class_summary_subtitle(std::size_t graded, bool cuda, const std::string& setup_problem,
                                   std::size_t not_graded);

/// Writes the class's `out`/gradebook.csv, leaderboard.html and .csv (named as `leaderboard`
/// says) and summary.html from `records` (the students in `not_graded` listed without a result);
/// returns the gradebook's path. Under a late plan (`late`), the gradebook and summary show each
/// student's penalty and final score, and their reports carry the note saying why; where the
/// leaderboard uses pseudonyms, each student's reports name theirs (batch/class_notes.hpp). A
/// local batch and a collect of its parts end alike through it.
Result<std::filesystem::path> write_class_files(const Spec& spec, const std::filesystem::path& out,
                                                const std::vector<StudentRecord>& records,
                                                const std::vector<std::string>& not_graded,
                                                std::optional<std::int64_t> deadline_unix, bool cuda,
                                                const std::string& setup_problem,
                                                const LeaderboardOptions& leaderboard, const LatePlan* late = nullptr);

/// One line saying where shared GPUs' time went (`turns`): alone, shared (how many at once, how
/// long winding down for turns alone) and idle, and the most submissions per minute the turns
/// alone allow for the `graded` ones; empty where no time was counted.
std::string gpu_turns_line(const GpuTurnTimes& turns, std::size_t graded);

/// The summary as lines of text for the terminal (no colour), `assignment` naming the batch.
std::string render_batch_summary(const BatchSummary& summary, const std::string& assignment,
                                 const std::filesystem::path& out);

}  // namespace cugrade
