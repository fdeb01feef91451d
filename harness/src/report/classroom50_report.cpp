#include "report/classroom50_report.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/utc_time.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

/// Whole points, as Classroom 50 keeps them; never below 0.
long long whole(double points) { return std::max(0LL, std::llround(points)); }

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

/// A test: whole points, the exact ones beside them, and what the student reads.
json test(const std::string& name, bool passed, double points, double max_points, const std::string& output) {
  return {{"test-name", name}, {"passed", passed}, {"score", whole(points)}, {"max-score", whole(max_points)},
          {"points", std::round(points * 100.0) / 100.0}, {"max-points", std::round(max_points * 100.0) / 100.0},
          {"output", output}};
}

json build_test(const BuildResult& b) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < b.diagnostics.size() && i < 5; ++i) lines.push_back(format_diagnostic(b.diagnostics[i]));
  if (!b.message.empty()) lines.push_back(b.message);
  if (lines.empty()) lines.push_back(b.outcome == Outcome::passed ? "compiled and linked" : std::string(to_string(b.outcome)));
  return test("build", b.outcome == Outcome::passed, 0.0, 0.0, fmt::format("{}", fmt::join(lines, "\n")));
}

/// One test per step, over its cases in the report's order of steps.
std::vector<json> step_tests(const GradeReport& r) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CaseResult*>> steps;
  for (const CaseResult& c : r.cases) {
    if (!steps.contains(c.step)) order.push_back(c.step);
    steps[c.step].push_back(&c);
  }
  std::vector<json> tests;
  for (const std::string& step : order) {
    double points = 0.0, max_points = 0.0;
    std::size_t passed = 0, hidden_failed = 0, ungraded = 0;
    std::string first_failure;
    for (const CaseResult* c : steps[step]) {
      // As cugrade's own score counts (score/score.cpp): a case cugrade could not grade (a
      // harness fault) is neither won nor lost; after a failed build every case is lost.
      if (r.gradable && !is_student_outcome(c->outcome)) {
        ++ungraded;
        continue;
      }
      points += c->points;
      max_points += c->max_points;
      if (c->outcome == Outcome::passed) {
        ++passed;
      } else if (c->visibility == Visibility::hidden) {
        ++hidden_failed;
      } else if (first_failure.empty()) {
        const std::vector<std::string> detail = case_detail_lines(*c);
        first_failure = fmt::format("{}: {}{}", case_label(*c), to_string(c->outcome),
                                    detail.empty() ? "" : "\n" + fmt::format("{}", fmt::join(detail, "\n")));
      }
    }
    const std::size_t count = steps[step].size();
    std::string output = fmt::format("{} of {} cases passed", passed, count);
    if (hidden_failed) output += fmt::format(" ({} hidden case{} failed)", hidden_failed, hidden_failed == 1 ? "" : "s");
    if (ungraded) output += fmt::format("; {} not graded through a fault of cugrade's own (no points lost)", ungraded);
    if (!first_failure.empty()) output += "\nfirst failure: " + first_failure;
    tests.push_back(test(step, passed == count && r.gradable, r.gradable ? points : 0.0, max_points, output));
  }
  return tests;
}

json performance_test(const PerformanceResult& p, bool gradable) {
  const PerformanceRow row = performance_row(p);
  std::string output = fmt::format("your time {} · reference {} · ratio {}", row.time, row.reference, row.ratio);
  if (!row.flags.empty()) output += "\nflags: " + row.flags;
  if (!p.message.empty()) output += "\n" + p.message;
  const bool graded = !gradable || is_student_outcome(p.outcome);
  return test(fmt::format("performance: {} at {}", p.step, row.size),
              gradable && is_student_outcome(p.outcome) && p.points + 1e-9 >= p.max_points,
              graded ? p.points : 0.0, graded ? p.max_points : 0.0, output);
}

/// YYYY-MM-DDTHH:MM:SSZ, the only form the schema accepts: the report's start, else now.
std::string schema_time(const std::string& started_at) {
  static const std::regex form(R"(\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ)");
  return std::regex_match(started_at, form) ? started_at : utc_now_iso8601();
}

}  // namespace

Result<Classroom50Identity> classroom50_identity_from_environment() {
  Classroom50Identity id;
  id.classroom = environment("CLASSROOM");
  id.assignment = environment("ASSIGNMENT");
  id.assignment_type = environment("ASSIGNMENT_TYPE");
  // The runner's own default. Any other value is passed on as the runner gave it: the runner
  // checks it against the assignment's mode, and newer runners know modes ("team") that the
  // schema kept here (individual, group) predates.
  if (id.assignment_type.empty()) id.assignment_type = "individual";
  id.owner = environment("OWNER");
  if (id.owner.empty()) id.owner = environment("USERNAME");
  id.submission = environment("SUBMISSION_TAG");
  id.commit = environment("COMMIT_URL");
  id.release = environment("RELEASE_URL");
  id.review = environment("REVIEW_URL");
  if (id.review.empty()) id.review = id.commit;
  if (const std::string actor = environment("GITHUB_ACTOR"); !actor.empty()) {
    id.submitted_by = actor;
    const std::string number = environment("GITHUB_ACTOR_ID");
    if (!number.empty() && number.find_first_not_of("0123456789") == std::string::npos && number.size() < 19)
      id.submitted_by_id = std::stoll(number);
  }
  std::vector<std::string> missing;
  for (const auto& [name, value] : {std::pair{"CLASSROOM", id.classroom}, {"ASSIGNMENT", id.assignment},
                                    {"OWNER (or USERNAME)", id.owner}, {"SUBMISSION_TAG", id.submission},
                                    {"COMMIT_URL", id.commit}, {"RELEASE_URL", id.release}})
    if (value.empty()) missing.push_back(name);
  std::vector<std::string> problems;
  if (!missing.empty())
    problems.push_back(fmt::format("{} not set", fmt::join(missing, ", ")));
  if (!id.submission.empty() && !id.submission.starts_with("submit/"))
    problems.push_back(fmt::format("SUBMISSION_TAG '{}' is not a submit/... tag", id.submission));
  if (!problems.empty())
    return fail(fmt::format("the classroom50 report takes the submission's identity from Classroom 50's runner, "
                            "which sets it for an autograder: {} (run cugrade from the assignment's autograder.py; "
                            "docs/reports.md)",
                            fmt::join(problems, "; ")));
  return id;
}

json report_to_classroom50(const GradeReport& report, const Classroom50Identity& id) {
  json tests = json::array();
  tests.push_back(build_test(report.build));
  for (json& t : step_tests(report)) tests.push_back(std::move(t));
  // Not timed (the CPU backend, --no-performance): no 0/0 test that reads as failed. After a failed
  // build every target is lost, as in cugrade's score.
  for (const PerformanceResult& p : report.performance)
    if (!report.gradable || p.outcome != Outcome::not_run) tests.push_back(performance_test(p, report.gradable));
  long long score = 0, max_score = 0;
  for (const json& t : tests) {
    score += t["score"].get<long long>();
    max_score += t["max-score"].get<long long>();
  }
  const std::string when = schema_time(report.started_at);
  json result{{"schema", "classroom50/result/v1"},
              {"classroom", id.classroom},
              {"assignment", id.assignment},
              {"assignment_type", id.assignment_type},
              {"owner", id.owner},
              {"submission", id.submission},
              {"commit", id.commit},
              {"release", id.release},
              {"review", id.review},
              {"datetime", when},
              {"graded_at", when},
              {"score", score},
              {"max-score", max_score},
              {"tests", std::move(tests)}};
  if (id.submitted_by)
    result["submitted_by"] = {{"username", *id.submitted_by},
                              {"id", id.submitted_by_id ? json(*id.submitted_by_id) : json(nullptr)}};
  return result;
}

}  // namespace cugrade
