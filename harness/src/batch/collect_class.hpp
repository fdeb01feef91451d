#pragma once
// `cugrade grade --collect`: the gradebook, the class summary and the console summary of a class
// whose parts were graded elsewhere (`--shard I/N` processes, Slurm's array tasks), made from the
// result files alone, without grading. A student with no result is a harness error (never 0
// points): the process that had them ended before writing it, and a rerun grades them.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "batch/grade_batch.hpp"
#include "batch/leaderboard.hpp"
#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What a collect reads and writes.
struct CollectOptions {
  std::filesystem::path submissions;          ///< the class, as graded
  std::filesystem::path out;                  ///< results/ are read; gradebook.csv, summary.html written
  std::optional<std::int64_t> deadline_unix;  ///< adds the late flag to the gradebook
  std::optional<LatePlan> late;               ///< `--late-policy`/`--extensions`: penalties in the class files
  /// Students counted as graded by this run (the parts' work), where those results exist; others
  /// with a result count as kept from earlier.
  std::set<std::string> graded_now;
  LeaderboardOptions leaderboard;  ///< the course secret for pseudonyms, or `--leaderboard-names`
};

/// Why a student without a result was not graded, as the summary lists it.
inline constexpr const char* no_result_written =
    "not graded: no result was written (the process grading it ended first, e.g. a cancelled or failed task)";

/// Writes the gradebook and class summary from the result files of every student under
/// `options.submissions` and returns the summary a local batch would (times: the stages of the
/// students graded now). Fails only when the class cannot be listed or a file cannot be written.
Result<BatchSummary> collect_class(const Spec& spec, const CollectOptions& options);

/// The ids of the students under `options.submissions` that have no result under `options.out`.
Result<std::vector<std::string>> students_without_result(const CollectOptions& options);

}  // namespace cugrade
