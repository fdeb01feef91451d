#include "batch/leaderboard.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "batch/gradebook.hpp"
#include "batch/pseudonym.hpp"
#include "core/atomic_file.hpp"

namespace cugrade {

namespace {

/// The board a target's times go on, in the spec's order, one per (step, size).
std::vector<LeaderboardBoard> empty_boards(const Spec& spec) {
  std::vector<LeaderboardBoard> boards;
  for (const PerformanceTarget& target : spec.performance) {
    const auto sizes = std::count_if(spec.performance.begin(), spec.performance.end(),
                                     [&](const PerformanceTarget& t) { return t.step == target.step; });
    LeaderboardTime key;
    key.step = target.step;
    key.size = params_to_string(target.params);
    boards.push_back(LeaderboardBoard{.name = leaderboard_board_name(key, sizes > 1), .step = key.step,
                                      .size = key.size, .rows = {}});
  }
  return boards;
}

void rank(std::vector<LeaderboardRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
    return a.time.median_ms != b.time.median_ms ? a.time.median_ms < b.time.median_ms : a.name < b.name;
  });
  for (std::size_t i = 0; i < rows.size(); ++i)
    rows[i].rank = i > 0 && rows[i].time.median_ms == rows[i - 1].time.median_ms ? rows[i - 1].rank : i + 1;
}

}  // namespace

std::map<std::string, std::string> leaderboard_pseudonyms(const Spec& spec, const std::vector<StudentRecord>& records,
                                                          const LeaderboardOptions& options) {
  if (spec.performance.empty() || !options.secret || options.real_names) return {};
  std::vector<std::string> students;
  for (const StudentRecord& r : records) students.push_back(r.student);
  return class_pseudonyms(*options.secret, students);
}

std::string leaderboard_note(const std::string& pseudonym) {
  return fmt::format("On the class's speed leaderboard you are {} (a name derived from your id under the course "
                     "secret: the others there cannot tell it is you). A time of yours is listed once it counts: "
                     "timed on a GPU in a sealed run, every case passed and nothing flagged.",
                     pseudonym);
}

Leaderboard make_leaderboard(const Spec& spec, const std::vector<StudentRecord>& records,
                             const LeaderboardOptions& options) {
  Leaderboard board;
  board.assignment = spec.id;
  board.title = spec.title;
  board.students = records.size();
  board.real_names = options.real_names;
  board.boards = empty_boards(spec);
  if (!options.real_names && !options.secret)
    board.unnamed_reason =
        "The students' pseudonyms are derived from the course secret, and this class was graded without one. "
        "Grade with --secret-file FILE (or CUGRADE_COURSE_SECRET) for pseudonyms, or with --leaderboard-names "
        "to list the students' ids.";
  const std::map<std::string, std::string> pseudonyms = leaderboard_pseudonyms(spec, records, options);
  std::map<std::string, std::size_t> left_out;
  for (const StudentRecord& r : records) {
    if (auto why = leaderboard_exclusion(r.report)) {
      ++left_out[*why];
      continue;
    }
    for (const PerformanceResult& p : r.report.performance)
      if (auto why = leaderboard_step_exclusion(p))
        ++left_out[fmt::format("{} ({})", *why, p.step)];
    if (!board.unnamed_reason.empty()) continue;
    const auto pseudonym = pseudonyms.find(r.student);
    // No pseudonym: the spec times nothing now (a record graded before it changed ranks nowhere).
    if (!options.real_names && pseudonym == pseudonyms.end()) continue;
    const std::string name = options.real_names ? r.student : pseudonym->second;
    for (const LeaderboardTime& time : leaderboard_times(r.report)) {
      const auto target = std::find_if(board.boards.begin(), board.boards.end(), [&](const LeaderboardBoard& b) {
        return b.step == time.step && b.size == time.size;
      });
      // A time of a target the spec no longer has (graded before the spec changed) ranks nowhere.
      if (target != board.boards.end()) target->rows.push_back(LeaderboardRow{.rank = 0, .name = name, .time = time});
    }
  }
  for (LeaderboardBoard& b : board.boards) rank(b.rows);
  for (const auto& [reason, count] : left_out) board.left_out.push_back({reason, count});
  return board;
}

std::string render_leaderboard_csv(const Leaderboard& leaderboard) {
  std::string csv = "board,step,size,rank,student,time_ms,reference_ms,ratio,rate,rate_unit\n";
  for (const LeaderboardBoard& b : leaderboard.boards)
    for (const LeaderboardRow& row : b.rows)
      // {} writes a double's shortest exact form: the same number Gradescope's entry carries.
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csv_field(b.name), csv_field(b.step), csv_field(b.size),
                         row.rank, csv_field(row.name), row.time.median_ms, row.time.reference_ms, row.time.ratio,
                         row.time.rate, csv_field(row.time.rate_unit));
  return csv;
}

Result<bool> write_leaderboard(const std::filesystem::path& out, const Spec& spec,
                               const std::vector<StudentRecord>& records, const LeaderboardOptions& options) {
  const Leaderboard board = make_leaderboard(spec, records, options);
  if (auto written = write_file_atomically(out / "leaderboard.csv", render_leaderboard_csv(board)); !written)
    return written;
  return write_file_atomically(out / "leaderboard.html", render_leaderboard_html(board));
}

}  // namespace cugrade
