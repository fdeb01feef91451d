#include "report/leaderboard_entries.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/report_format.hpp"

namespace cugrade {

std::optional<std::string> leaderboard_exclusion(const GradeReport& report) {
  if (report.outcome == Outcome::harness_error) return "not graded (a harness error)";
  if (!report.gradable) return "not gradable";
  if (report.outcome != Outcome::passed) return "not every case passed";
  // The CPU backend times nothing comparable (design.md §8); a record without a backend is older.
  if (report.environment.backend != "cuda") return "not timed on a GPU";
  const bool unsealed = std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& note) {
    return std::string_view(note).starts_with(unsealed_note_prefix);
  });
  if (unsealed) return "not sealed";
  return std::nullopt;
}

std::optional<std::string> leaderboard_step_exclusion(const PerformanceResult& p) {
  if (!p.flags.empty()) return fmt::format("timing flagged: {}", fmt::join(p.flags, ", "));
  // passed: timed with every timed output verified; anything else (a mismatch while timed, a
  // timeout, a harness fault, not run) has no time worth ranking.
  if (p.outcome != Outcome::passed || !p.student || p.student->median_ms <= 0.0) return "not timed";
  return std::nullopt;
}

std::vector<LeaderboardTime> leaderboard_times(const GradeReport& report) {
  std::vector<LeaderboardTime> times;
  if (leaderboard_exclusion(report)) return times;
  for (const PerformanceResult& p : report.performance) {
    if (leaderboard_step_exclusion(p)) continue;
    times.push_back(LeaderboardTime{.step = p.step,
                                    .size = performance_row(p).size,
                                    .median_ms = p.student->median_ms,
                                    .reference_ms = p.reference_time ? p.reference_time->median_ms : 0.0,
                                    .ratio = p.ratio,
                                    .rate = p.student_rate,
                                    .rate_unit = p.rate_unit});
  }
  return times;
}

std::string leaderboard_board_name(const LeaderboardTime& time, bool several_sizes) {
  return several_sizes ? fmt::format("{} at {}", time.step, time.size) : time.step;
}

}  // namespace cugrade
