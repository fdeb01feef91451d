#include "report/gradescope_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/leaderboard_entries.hpp"
#include "report/markdown_report.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

/// Diagnostics listed in the build test's output (as in the other reports).
constexpr std::size_t kShownDiagnostics = 10;

/// Points as Gradescope shows them: rounded to 2 decimals like every cugrade report.
double points(double value) { return std::round(value * 100.0) / 100.0; }

std::string join_lines(const std::vector<std::string>& lines) {
  return fmt::format("{}", fmt::join(lines, "\n"));
}

json build_test(const BuildResult& b) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < b.diagnostics.size() && i < kShownDiagnostics; ++i)
    lines.push_back(format_diagnostic(b.diagnostics[i]));
  if (b.diagnostics.size() > kShownDiagnostics)
    lines.push_back(fmt::format("... and {} more", b.diagnostics.size() - kShownDiagnostics));
  if (!b.message.empty()) lines.push_back(b.message);
  if (lines.empty())
    lines.push_back(b.outcome == Outcome::passed ? "compiled and linked"
                                                 : std::string(to_string(b.outcome)));
  // Worth no points of its own (the cases carry them) but always visible: a student must see
  // why nothing ran even while every other test is held back.
  return {{"name", "Build"}, {"score", 0}, {"max_score", 0},
          {"status", b.outcome == Outcome::passed ? "passed" : "failed"},
          {"output", join_lines(lines)}, {"visibility", "visible"}};
}

json case_test(const CaseResult& c, std::size_t hidden_number) {
  const bool graded = is_student_outcome(c.outcome);
  json test{{"score", points(c.points)},
            // A harness fault is left out of the maximum too, as in cugrade's own score.
            {"max_score", graded ? points(c.max_points) : 0.0},
            {"status", c.outcome == Outcome::passed ? "passed" : "failed"}};
  if (c.visibility == Visibility::hidden) {
    test["name"] = fmt::format("{}: hidden case {}", c.step, hidden_number);
    test["output"] = std::string(to_string(c.outcome));
    test["visibility"] = "after_published";
    return test;
  }
  test["name"] = fmt::format("{}: {}", c.step, case_label(c));
  const std::vector<std::string> lines = case_detail_lines(c);
  test["output"] = lines.empty() ? std::string(to_string(c.outcome)) : join_lines(lines);
  test["visibility"] = "visible";
  return test;
}

json performance_test(const PerformanceResult& p) {
  const PerformanceRow row = performance_row(p);
  std::vector<std::string> lines{fmt::format("your time {} · reference {} · ratio {}", row.time,
                                             row.reference, row.ratio)};
  if (row.rate != "-") lines.push_back("your rate " + row.rate);
  if (!row.ceiling.empty()) lines.push_back(row.ceiling + " of this GPU's measured ceiling");
  if (!row.flags.empty()) lines.push_back("flags: " + row.flags);
  if (!p.message.empty()) lines.push_back(p.message);
  const bool graded = is_student_outcome(p.outcome);
  return {{"name", fmt::format("performance: {} at {}", p.step, row.size)},
          {"score", points(p.points)}, {"max_score", graded ? points(p.max_points) : 0.0},
          {"status", graded && p.points + 1e-9 >= p.max_points ? "passed" : "failed"},
          {"output", join_lines(lines)}, {"visibility", "visible"}};
}

/// The summary above the tests, in Markdown: the score, what ran, and cugrade's notes.
std::string summary(const GradeReport& r) {
  std::string out = fmt::format("**Score: {} / {}**", format_points(r.score), format_points(r.max_score));
  out += r.gradable ? fmt::format(" · outcome `{}`\n\n", to_string(r.outcome))
                    : fmt::format(" — not gradable (`{}`): see the Build test\n\n", to_string(r.outcome));
  if (r.gradable) {
    const auto passed = std::count_if(r.cases.begin(), r.cases.end(),
                                      [](const CaseResult& c) { return c.outcome == Outcome::passed; });
    out += fmt::format("{} of {} cases passed", passed, r.cases.size());
    const auto timed = std::count_if(r.performance.begin(), r.performance.end(),
                                     [](const PerformanceResult& p) { return p.outcome != Outcome::not_run; });
    if (timed) out += fmt::format("; {} performance targets", timed);
    out += ".\n\n";
  }
  std::string where = r.environment.backend.empty() ? "unknown backend" : r.environment.backend + " backend";
  if (!r.environment.gpu.empty()) where += ", " + r.environment.gpu;
  out += fmt::format("Graded by cugrade {} on the {} (seed {}).\n", r.cugrade_version, where, r.seed);
  for (const std::string& note : r.notes) out += "\n- " + escape_markdown(note);
  return out;
}

}  // namespace

json report_to_gradescope(const GradeReport& report) {
  json tests = json::array();
  tests.push_back(build_test(report.build));
  // After a failed build nothing ran: the cases would all read "not_run".
  if (report.gradable) {
    std::size_t hidden = 0;
    for (const CaseResult& c : report.cases)
      tests.push_back(case_test(c, c.visibility == Visibility::hidden ? ++hidden : 0));
    // Performance that was not graded (the CPU backend, --no-performance) is left out: a 0/0
    // "failed" test would tell a perfect student they failed something.
    for (const PerformanceResult& p : report.performance)
      if (p.outcome != Outcome::not_run) tests.push_back(performance_test(p));
  }
  double seconds = report.build.seconds;
  for (const CaseResult& c : report.cases) seconds += c.seconds;
  json results{{"score", points(report.score)},
               {"execution_time", static_cast<long>(std::ceil(seconds))},
               {"output", summary(report)},
               {"output_format", "md"},
               {"test_output_format", "text"},
               {"test_name_format", "text"},
               {"tests", std::move(tests)},
               {"extra_data", {{"cugrade_version", report.cugrade_version},
                               {"assignment", report.assignment},
                               {"outcome", to_string(report.outcome)},
                               {"gradable", report.gradable},
                               {"max_score", points(report.max_score)},
                               {"seed", report.seed},
                               {"backend", report.environment.backend},
                               {"gpu", report.environment.gpu},
                               {"submission_sha256", report.submission_sha256}}}};
  // Timed steps as leaderboard entries (lower is better), shown only where a course turns
  // Gradescope's leaderboard on: the times the class's leaderboard.html ranks (sealed GPU runs
  // whose every case passed, no flag on the timing), so both boards agree.
  json leaderboard = json::array();
  for (const LeaderboardTime& time : leaderboard_times(report)) {
    const auto sizes = std::count_if(report.performance.begin(), report.performance.end(),
                                     [&](const PerformanceResult& p) { return p.step == time.step; });
    leaderboard.push_back({{"name", fmt::format("{} time (ms)", leaderboard_board_name(time, sizes > 1))},
                           {"value", time.median_ms}, {"order", "asc"}});
  }
  if (!leaderboard.empty()) results["leaderboard"] = std::move(leaderboard);
  return results;
}

}  // namespace cugrade
