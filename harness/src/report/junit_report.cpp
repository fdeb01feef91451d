#include "report/junit_report.hpp"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/markup.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

std::string e(std::string_view text) { return escape_markup(text); }

/// One <testcase> and how it counts in its suite's totals.
struct TestCase {
  std::string xml;
  bool failure = false, error = false, skipped = false;
  double seconds = 0.0;
};

/// The element that says how a test ended: <failure> (the student's), <error> (cugrade's),
/// <skipped> (not run), or nothing for a pass.
TestCase ending(Outcome outcome, const std::string& message, const std::string& details) {
  TestCase t;
  if (outcome == Outcome::passed) return t;
  const std::string type(to_string(outcome));
  if (outcome == Outcome::not_run) {
    t.skipped = true;
    t.xml = fmt::format("      <skipped message=\"{}\"/>\n", e(message));
  } else if (outcome == Outcome::harness_error) {
    t.error = true;
    t.xml = fmt::format("      <error message=\"{}\" type=\"{}\">{}</error>\n", e(message), type, e(details));
  } else {
    t.failure = true;
    t.xml = fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", e(message), type,
                        e(details));
  }
  return t;
}

/// `text` without spaces at either end (a name a CI server shows and matches on).
std::string trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(' ') - first + 1));
}

TestCase testcase(std::string_view classname, std::string_view raw_name, double seconds, TestCase body,
                  std::string_view system_out = "") {
  const std::string name = trimmed(raw_name);
  std::string inner = body.xml;
  if (!system_out.empty()) inner += fmt::format("      <system-out>{}</system-out>\n", e(system_out));
  body.seconds = seconds;
  body.xml = inner.empty()
                 ? fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"/>\n",
                               e(classname), e(name), seconds)
                 : fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n{}    "
                               "</testcase>\n", e(classname), e(name), seconds, inner);
  return body;
}

TestCase build_case(const GradeReport& r) {
  const BuildResult& b = r.build;
  std::vector<std::string> lines;
  for (const Diagnostic& d : b.diagnostics) lines.push_back(format_diagnostic(d));
  if (!b.message.empty()) lines.push_back(b.message);
  const std::string details = fmt::format("{}", fmt::join(lines, "\n"));
  const std::string message = b.message.empty() ? std::string(to_string(b.outcome)) : b.message;
  const std::string name = fmt::format("build {}", fmt::join(r.submission, " "));
  // A submission that did not build (or had nothing to build) is an error a CI server shows in
  // red, not a list of skipped cases with 0 failures.
  TestCase end = ending(b.outcome, message, details);
  if (!r.gradable && b.outcome != Outcome::passed && !end.error) {
    const std::string type(to_string(b.outcome == Outcome::not_run ? r.outcome : b.outcome));
    const std::string why = b.outcome == Outcome::not_run && !r.notes.empty() && b.message.empty() ? r.notes.front() : message;
    end = TestCase{fmt::format("      <error message=\"{}\" type=\"{}\">{}</error>\n", e(why), e(type),
                               e(details.empty() ? why : details)),
                   false, true, false, 0.0};
  }
  // A passing build's warnings go to system-out, where CI servers show them beside the test.
  return testcase(r.assignment + ".build", name, b.seconds, end, b.outcome == Outcome::passed ? details : "");
}

TestCase case_testcase(const GradeReport& r, const CaseResult& c) {
  const std::string classname = r.assignment + "." + c.step;
  if (c.visibility == Visibility::hidden) {
    const std::string outcome(to_string(c.outcome));
    return testcase(classname, c.id, c.seconds, ending(c.outcome, outcome, outcome));
  }
  const std::vector<std::string> lines = case_detail_lines(c);
  const std::string message = lines.empty() ? std::string(to_string(c.outcome)) : lines.front();
  return testcase(classname, c.id, c.seconds,
                  ending(c.outcome, message, fmt::format("{}", fmt::join(lines, "\n"))));
}

TestCase performance_testcase(const GradeReport& r, const PerformanceResult& p) {
  const PerformanceRow row = performance_row(p);
  const std::string details = fmt::format(
      "your time {}, reference {}, ratio {}, rate {}, points {}{}{}", row.time, row.reference,
      row.ratio, row.rate, row.points, row.flags.empty() ? "" : ", flags: " + row.flags,
      p.message.empty() ? "" : "\n" + p.message);
  // Partial credit is a pass with its numbers beside it; earning nothing of a target is a failure.
  Outcome outcome = p.outcome;
  if (outcome == Outcome::passed && p.max_points > 0 && p.points <= 0) outcome = Outcome::wrong_answer;
  const std::string message = outcome == p.outcome ? std::string(to_string(p.outcome))
                                                   : fmt::format("earned 0 of {} points", format_points(p.max_points));
  const double seconds = p.student ? p.student->median_ms / 1000.0 : 0.0;
  return testcase(r.assignment + "." + p.step, fmt::format("performance {}", row.size), seconds,
                  ending(outcome, message, details), outcome == Outcome::passed ? details : "");
}

std::string properties(const GradeReport& r) {
  const Environment& env = r.environment;
  const std::vector<std::pair<std::string, std::string>> all{
      {"backend", env.backend}, {"gpu", env.gpu}, {"compute_capability", env.compute_capability},
      {"driver", env.driver}, {"cuda_runtime", env.cuda_runtime}, {"nvcc", env.nvcc},
      {"seed", std::to_string(r.seed)}, {"cugrade_version", r.cugrade_version},
      {"submission_sha256", r.submission_sha256}, {"outcome", std::string(to_string(r.outcome))},
      {"gradable", r.gradable ? "true" : "false"}, {"score", format_points(r.score)},
      {"max_score", format_points(r.max_score)}};
  std::string out = "    <properties>\n";
  for (const auto& [name, value] : all)
    if (!value.empty()) out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, e(value));
  return out + "    </properties>\n";
}

struct Totals {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0.0;
  void add(const TestCase& t) {
    ++tests;
    failures += t.failure;
    errors += t.error;
    skipped += t.skipped;
    seconds += t.seconds;
  }
  std::string attributes() const {
    return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\"",
                       tests, failures, errors, skipped, seconds);
  }
  /// <testsuites> has no skipped attribute in the JUnit schema (Jenkins' junit-10.xsd).
  std::string root_attributes() const {
    return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\"", tests, failures, errors,
                       seconds);
  }
};

}  // namespace

std::string render_junit(const GradeReport& report) {
  // Suites in first-seen order: the build, then each step as the spec lists its cases.
  std::vector<std::string> steps;
  std::map<std::string, std::vector<TestCase>> by_step;
  const auto suite_of = [&](const std::string& step) -> std::vector<TestCase>& {
    if (!by_step.contains(step)) steps.push_back(step);
    return by_step[step];
  };
  // Nothing ran without a build: the build's error is the whole story, no skipped cases.
  const bool ran = report.gradable || report.build.outcome == Outcome::passed;
  if (ran) {
    for (const CaseResult& c : report.cases) suite_of(c.step).push_back(case_testcase(report, c));
    for (const PerformanceResult& p : report.performance)
      suite_of(p.step).push_back(performance_testcase(report, p));
  }

  const std::string props = properties(report);
  Totals all;
  std::string suites;
  const auto add_suite = [&](const std::string& name, const std::vector<TestCase>& cases) {
    Totals totals;
    for (const TestCase& t : cases) totals.add(t);
    for (const TestCase& t : cases) all.add(t);
    suites += fmt::format("  <testsuite name=\"{}\" {}{}{}>\n{}", e(name), totals.attributes(),
                          report.started_at.empty() ? "" : fmt::format(" timestamp=\"{}\"", e(report.started_at)),
                          report.environment.host.empty() ? "" : fmt::format(" hostname=\"{}\"", e(report.environment.host)),
                          props);
    for (const TestCase& t : cases) suites += t.xml;
    suites += "  </testsuite>\n";
  };
  add_suite(report.assignment + ".build", {build_case(report)});
  for (const std::string& step : steps) add_suite(report.assignment + "." + step, by_step[step]);
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cugrade {}\" {}>\n"
                     "{}</testsuites>\n", e(report.assignment), all.root_attributes(), suites);
}

}  // namespace cugrade
