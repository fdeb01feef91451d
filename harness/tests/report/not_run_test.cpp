// Cases and targets that never ran still stand in the report, worth their points, saying why.
#include "report/not_run.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("report::mark_not_run") {
  Case visible{"naive/n=5/seed=1", "naive", {{"n", 5}}, 1, 2.0, Visibility::visible, false};
  Case hidden{"hidden/naive/1", "naive", {{"n", 7}}, 9, 3.0, Visibility::hidden, false};
  PerformanceTarget target;
  target.step = "tiled";
  target.reference = "tiled_ref";
  target.params = {{"n", 2048}};
  target.points = 5.0;
  GradeReport report;
  report.cases.push_back({"earlier", "copy", Visibility::visible, {}, 0, Outcome::passed, 1.0, 1.0, 0.1, "", {}});
  mark_not_run(report, {visible, hidden}, {target}, "not run: the build failed");
  REQUIRE(report.cases.size() == 3);  // appended after what was there
  const CaseResult& first = report.cases[1];
  CHECK(first.id == "naive/n=5/seed=1");
  CHECK(first.step == "naive");
  CHECK(first.params == Params{{"n", 5}});
  CHECK(first.seed == 1);
  CHECK(first.outcome == Outcome::not_run);
  CHECK(first.points == 0.0);
  CHECK(first.max_points == 2.0);
  CHECK(first.message == "not run: the build failed");
  CHECK(report.cases[2].visibility == Visibility::hidden);
  CHECK(report.cases[2].max_points == 3.0);
  REQUIRE(report.performance.size() == 1);
  const PerformanceResult& timed = report.performance[0];
  CHECK(timed.step == "tiled");
  CHECK(timed.reference == "tiled_ref");
  CHECK(timed.params == Params{{"n", 2048}});
  CHECK(timed.points == 0.0);
  CHECK(timed.max_points == 5.0);
  CHECK(timed.message == "not run: the build failed");
}

TEST_CASE("report::left_unrun") {
  CaseResult hung{.outcome = Outcome::timeout, .message = "did not finish within 10 s and was stopped"};
  CHECK_FALSE(left_unrun(hung));
  CaseResult after{.outcome = Outcome::timeout, .message = "not run: an earlier case of this step timed out (case-1)"};
  CHECK(left_unrun(after));
}
