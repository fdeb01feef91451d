#pragma once
// The class's speed leaderboard (`cugrade grade` writes it as leaderboard.html beside
// summary.html): per timed step, the kernel times that count (report/leaderboard_entries.hpp)
// ranked fastest first, each under a pseudonym or, where asked, the student's id; and how many
// submissions were left off and why, so an empty board says why it is empty.
#include <cstddef>
#include <string>
#include <vector>

#include "report/leaderboard_entries.hpp"

namespace cugrade {

/// One place on a board.
struct LeaderboardRow {
  std::size_t rank = 0;  ///< 1 for the fastest; equal times share a rank ("1, 1, 3")
  std::string name;      ///< a pseudonym, or the student's id with --leaderboard-names
  LeaderboardTime time;

  /// Field-by-field equality.
  bool operator==(const LeaderboardRow&) const = default;
};

/// One timed step's board.
struct LeaderboardBoard {
  std::string name;  ///< leaderboard_board_name(): "tiled", or "tiled at K=…" where a step has several sizes
  std::string step;
  std::string size;
  std::vector<LeaderboardRow> rows;  ///< ranked, fastest first

  /// Field-by-field equality.
  bool operator==(const LeaderboardBoard&) const = default;
};

/// Submissions left off every board for one reason.
struct LeaderboardLeftOut {
  std::string reason;  ///< leaderboard_exclusion()'s or leaderboard_step_exclusion()'s words
  std::size_t count = 0;

  /// Field-by-field equality.
  bool operator==(const LeaderboardLeftOut&) const = default;
};

/// The whole leaderboard of a class.
struct Leaderboard {
  std::string assignment;
  std::string title;
  std::size_t students = 0;       ///< results in the class (each student once)
  bool real_names = false;        ///< rows name students by their ids (--leaderboard-names)
  /// Why nobody could be named (no course secret to derive pseudonyms from, no --leaderboard-names):
  /// then every board is empty and the page says this instead.
  std::string unnamed_reason;
  std::vector<LeaderboardBoard> boards;     ///< one per timed step of the assignment, in its order
  std::vector<LeaderboardLeftOut> left_out; ///< per reason, students (whole submissions) or steps left off

  /// Field-by-field equality.
  bool operator==(const Leaderboard&) const = default;
};

/// The leaderboard as one self-contained HTML page (the reports' frame: inline CSS, no script,
/// nothing fetched); every name and text escaped. A board nobody qualifies for, or a class where
/// nobody does, says so in words and names the reasons.
std::string render_leaderboard_html(const Leaderboard& leaderboard);

}  // namespace cugrade
