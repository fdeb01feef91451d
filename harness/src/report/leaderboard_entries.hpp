#pragma once
// Which of a submission's kernel times may stand on a speed leaderboard, shared by the class's
// leaderboard (batch/leaderboard.hpp) and Gradescope's `leaderboard` entries, so that both show
// the same times of the same submissions. A time counts only from a sealed run on a GPU whose
// every case passed, timed and verified, with no flag raised on its timing: a wrong, unsealed or
// impossible time must never top a board.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// How every unsealed report's note begins (process/sandbox.hpp's unsealed_note()).
inline constexpr std::string_view unsealed_note_prefix = "not sealed:";

/// One timed step's figures as a leaderboard shows them.
struct LeaderboardTime {
  std::string step;            ///< the student's step ("tiled")
  std::string size;            ///< its size as the reports write it ("K=2048,M=2048,N=2048")
  double median_ms = 0.0;      ///< the student's kernel time (median), what the board ranks by
  double reference_ms = 0.0;   ///< the reference's median in the same session
  double ratio = 0.0;          ///< reference time / student time (1 = as fast)
  double rate = 0.0;           ///< the student's achieved rate, in `rate_unit`
  std::string rate_unit;       ///< "GB/s", "TFLOP/s", or "" where the step has none

  /// Field-by-field equality (exact for doubles).
  bool operator==(const LeaderboardTime&) const = default;
};

/// Why none of `report`'s times may stand on a board ("not graded (a harness error)", "not
/// gradable", "not every case passed", "not timed on a GPU", "not sealed"), or nullopt when its
/// unflagged timed steps may.
std::optional<std::string> leaderboard_exclusion(const GradeReport& report);

/// Why one timed step of an otherwise eligible report does not count ("timing flagged:
/// below_roofline_floor", "not timed"), or nullopt when it does.
std::optional<std::string> leaderboard_step_exclusion(const PerformanceResult& result);

/// The times of `report` that count, in the report's order of timed steps; none where
/// leaderboard_exclusion() names a reason.
std::vector<LeaderboardTime> leaderboard_times(const GradeReport& report);

/// A board's name for a timed step: "tiled" where the assignment times the step at one size,
/// "tiled at K=…" where `several_sizes`.
std::string leaderboard_board_name(const LeaderboardTime& time, bool several_sizes);

}  // namespace cugrade
