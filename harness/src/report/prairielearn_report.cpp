#include "report/prairielearn_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/console_report.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

/// Diagnostics listed as format errors (as in the other reports).
constexpr std::size_t kShownDiagnostics = 10;

double rounded(double value, double scale) { return std::round(value * scale) / scale; }

json case_test(const CaseResult& c, std::size_t hidden_number) {
  const bool graded = is_student_outcome(c.outcome);
  json test{{"points", rounded(c.points, 100)},
            {"max_points", graded ? rounded(c.max_points, 100) : 0.0}};
  if (c.visibility == Visibility::hidden) {
    test["name"] = fmt::format("{}: hidden case {}", c.step, hidden_number);
    test["description"] = "a hidden case: only its outcome is shown";
    test["message"] = std::string(to_string(c.outcome));
    return test;
  }
  test["name"] = fmt::format("{}: {}", c.step, case_label(c));
  test["description"] = fmt::format("step {}, case {}", c.step, c.id);
  const std::vector<std::string> lines = case_detail_lines(c);
  test["message"] = lines.empty() ? std::string(to_string(c.outcome))
                                  : fmt::format("{}", fmt::join(lines, "\n"));
  return test;
}

json performance_test(const PerformanceResult& p) {
  const PerformanceRow row = performance_row(p);
  std::string message = fmt::format("your time {}, reference {}, ratio {}", row.time, row.reference,
                                    row.ratio);
  if (!row.flags.empty()) message += "; flags: " + row.flags;
  if (!p.message.empty()) message += "\n" + p.message;
  const bool graded = is_student_outcome(p.outcome);
  return {{"name", fmt::format("performance: {} at {}", p.step, row.size)},
          {"description", fmt::format("timed against the reference {}", p.reference)},
          {"points", rounded(p.points, 100)},
          {"max_points", graded ? rounded(p.max_points, 100) : 0.0},
          {"message", message}};
}

std::string message(const GradeReport& r) {
  if (!r.gradable)
    return r.build.message.empty()
               ? fmt::format("not gradable ({}): this attempt is not counted", to_string(r.outcome))
               : fmt::format("not gradable ({}): {}", to_string(r.outcome), r.build.message);
  const auto passed = std::count_if(r.cases.begin(), r.cases.end(),
                                    [](const CaseResult& c) { return c.outcome == Outcome::passed; });
  return fmt::format("Score {}: {} of {} cases passed.", format_score(r.score, r.max_score), passed,
                     r.cases.size());
}

}  // namespace

json report_to_prairielearn(const GradeReport& report) {
  json results{{"gradable", report.gradable}, {"message", message(report)},
               // The console report is what the student would see at a terminal; it shows
               // hidden cases only as "hidden case".
               {"output", render_console(report, false, ConsoleDetail::every_case)}};
  if (!report.gradable) {
    json errors = json::array();
    for (std::size_t i = 0; i < report.build.diagnostics.size() && i < kShownDiagnostics; ++i)
      if (report.build.diagnostics[i].severity == "error")
        errors.push_back(format_diagnostic(report.build.diagnostics[i]));
    if (errors.empty()) errors.push_back(message(report));
    results["format_errors"] = std::move(errors);
    results["score"] = 0.0;
    results["tests"] = json::array();
    return results;
  }
  // A maximum of 0 (an assignment whose every case was not graded) gives 0, never a division.
  const double fraction =
      report.max_score > 0 ? std::clamp(report.score / report.max_score, 0.0, 1.0) : 0.0;
  results["score"] = rounded(fraction, 1e4);
  json tests = json::array();
  std::size_t hidden = 0;
  for (const CaseResult& c : report.cases)
    tests.push_back(case_test(c, c.visibility == Visibility::hidden ? ++hidden : 0));
  for (const PerformanceResult& p : report.performance) tests.push_back(performance_test(p));
  results["tests"] = std::move(tests);
  return results;
}

}  // namespace cugrade
