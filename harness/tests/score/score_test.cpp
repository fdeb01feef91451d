#include "score/score.hpp"

#include <cmath>

#include <doctest/doctest.h>

namespace cugrade {
namespace {

/// Two steps, one visible group (2 steps × 2 sizes × 1 seed at 1 point), one hidden group
/// (tiled × 1 size × 2 seeds at 2 points) and a 5-point performance target for tiled.
Spec two_step_spec() {
  Spec spec;
  spec.id = "matmul";
  spec.steps = {Step{.name = "naive"}, Step{.name = "tiled"}};
  spec.cases.push_back(CaseGroup{.sizes = {{{"N", 16}}, {{"N", 33}}}, .seeds = {1}, .points = 1.0});
  spec.cases.push_back(CaseGroup{.steps = {"tiled"}, .sizes = {{{"N", 1000}}}, .seeds = {7, 8},
                                 .points = 2.0, .visibility = Visibility::hidden});
  spec.performance.push_back(PerformanceTarget{.step = "tiled", .params = {{"N", 4096}},
                                               .full_credit_at = 0.9, .no_credit_at = 0.5,
                                               .points = 5.0});
  return spec;
}

CaseResult passed_case(std::string id, std::string step, double points) {
  return CaseResult{.id = std::move(id), .step = std::move(step), .outcome = Outcome::passed,
                    .max_points = points};
}

PerformanceResult timed(double ratio) {
  return PerformanceResult{.step = "tiled", .params = {{"N", 4096}}, .outcome = Outcome::passed,
                           .ratio = ratio};
}

/// A built submission whose every case passed and whose tiled kernel runs at `ratio`.
GradeReport all_passed(double ratio) {
  GradeReport report;
  report.build.outcome = Outcome::passed;
  report.cases = {passed_case("naive/N=16/seed=1", "naive", 1), passed_case("naive/N=33/seed=1", "naive", 1),
                  passed_case("tiled/N=16/seed=1", "tiled", 1), passed_case("tiled/N=33/seed=1", "tiled", 1),
                  passed_case("hidden/tiled/1", "tiled", 2), passed_case("hidden/tiled/2", "tiled", 2)};
  report.performance = {timed(ratio)};
  return report;
}

}  // namespace

TEST_CASE("score::performance_credit") {
  SUBCASE("nothing at or below the no-credit ratio") {
    CHECK(performance_credit(0.4, 0.5, 0.9) == 0.0);
    CHECK(performance_credit(0.5, 0.5, 0.9) == 0.0);
  }
  SUBCASE("everything at or above the full-credit ratio") {
    CHECK(performance_credit(0.9, 0.5, 0.9) == 1.0);
    CHECK(performance_credit(3.0, 0.5, 0.9) == 1.0);
  }
  SUBCASE("linear in between") {
    CHECK(performance_credit(0.7, 0.5, 0.9) == doctest::Approx(0.5));
    CHECK(performance_credit(0.6, 0.5, 0.9) == doctest::Approx(0.25));
  }
  SUBCASE("a ratio that is not a number earns nothing") {
    CHECK(performance_credit(std::nan(""), 0.5, 0.9) == 0.0);
  }
}

TEST_CASE("score::score_report") {
  const Spec spec = two_step_spec();

  SUBCASE("every case passed at full speed: full marks") {
    GradeReport report = all_passed(1.1);
    score_report(report, spec);
    CHECK(report.gradable);
    CHECK(report.outcome == Outcome::passed);
    CHECK(report.score == 13.0);
    CHECK(report.max_score == 13.0);
    CHECK(report.cases[4].points == 2.0);
    CHECK(report.performance[0].max_points == 5.0);
    CHECK(report.performance[0].points == 5.0);
    CHECK(report.notes.empty());
  }
  SUBCASE("a failed case earns nothing; the outcome is the first failure in order") {
    GradeReport report = all_passed(1.1);
    report.cases[0].outcome = Outcome::crashed;
    report.cases[1].outcome = Outcome::wrong_answer;
    score_report(report, spec);
    CHECK(report.outcome == Outcome::crashed);
    CHECK(report.cases[0].points == 0.0);
    CHECK(report.cases[1].points == 0.0);
    CHECK(report.score == 11.0);
    CHECK(report.max_score == 13.0);
    CHECK(report.performance[0].points == 5.0);  // naive's failures do not touch tiled's speed
  }
  SUBCASE("performance earns partial credit linearly between the two ratios") {
    GradeReport report = all_passed(0.7);
    score_report(report, spec);
    CHECK(report.performance[0].points == doctest::Approx(2.5));
    CHECK(report.score == doctest::Approx(10.5));
    CHECK(report.max_score == 13.0);
  }
  SUBCASE("no performance points when a case of the same step failed") {
    GradeReport report = all_passed(1.1);
    report.cases[5].outcome = Outcome::wrong_answer;
    score_report(report, spec);
    CHECK(report.performance[0].points == 0.0);
    CHECK(report.score == 6.0);
    CHECK(report.max_score == 13.0);
    CHECK(report.notes == std::vector<std::string>{"performance of step tiled earns no points "
                                                   "until every case of that step passes"});
  }
  SUBCASE("no performance points for an untrustworthy timing") {
    for (const char* flag : {"below_roofline_floor", "output_mismatch"}) {
      GradeReport report = all_passed(1.1);
      report.performance[0].flags = {"timer_escaped", flag};
      score_report(report, spec);
      CHECK(report.performance[0].points == 0.0);
      CHECK(report.max_score == 13.0);
      CHECK(report.notes == std::vector<std::string>{
                                "performance of step tiled earns no points: its timing cannot be "
                                "trusted (timer_escaped, " + std::string(flag) + ")"});
    }
  }
  SUBCASE("a flag that does not disqualify leaves the points") {
    GradeReport report = all_passed(1.1);
    report.performance[0].flags = {"timer_escaped"};
    score_report(report, spec);
    CHECK(report.performance[0].points == 5.0);
  }
  SUBCASE("a performance run that failed earns nothing but counts") {
    GradeReport report = all_passed(1.1);
    report.performance[0].outcome = Outcome::timeout;
    score_report(report, spec);
    CHECK(report.performance[0].points == 0.0);
    CHECK(report.max_score == 13.0);
    CHECK(report.outcome == Outcome::passed);  // the overall outcome speaks of the cases
  }
  SUBCASE("performance not run (CPU backend) is left out of the maximum, with a note") {
    GradeReport report = all_passed(0.0);
    report.performance[0].outcome = Outcome::not_run;
    report.performance[0].message = "the CPU backend does not time kernels";
    score_report(report, spec);
    CHECK(report.score == 8.0);
    CHECK(report.max_score == 8.0);
    CHECK(report.outcome == Outcome::passed);
    REQUIRE(report.notes.size() == 1);
    CHECK(report.notes[0] == "performance not graded: the CPU backend does not time kernels");
  }
  SUBCASE("a harness fault in a case never costs points") {
    GradeReport report = all_passed(1.1);
    report.cases[2].outcome = Outcome::harness_error;
    report.cases[2].message = "could not write the input files";
    report.cases[3].outcome = Outcome::wrong_answer;
    score_report(report, spec);
    CHECK(report.outcome == Outcome::harness_error);
    CHECK(report.cases[2].points == 0.0);
    CHECK(report.score == 6.0);       // 2 naive + 4 hidden; tiled's speed earns nothing
    CHECK(report.max_score == 12.0);  // 13 − 1 (the faulty case)
    CHECK(report.notes == std::vector<std::string>{
                              "case tiled/N=16/seed=1 not graded (harness_error): could not "
                              "write the input files",
                              "performance of step tiled earns no points until every case of "
                              "that step passes"});
  }
  SUBCASE("performance is left out when its step's correctness could not be established") {
    GradeReport report = all_passed(1.1);
    report.cases[2].outcome = Outcome::harness_error;
    score_report(report, spec);
    CHECK(report.score == 7.0);
    CHECK(report.max_score == 7.0);  // 13 − 1 (the faulty case) − 5 (performance left out)
    REQUIRE(report.notes.size() == 2);
    CHECK(report.notes[0] == "case tiled/N=16/seed=1 not graded (harness_error)");
    CHECK(report.notes[1] == "performance of step tiled not graded: some of its correctness "
                             "cases were not graded");
  }
  SUBCASE("a case that did not run is left out; the outcome is not_run") {
    GradeReport report = all_passed(1.1);
    report.cases[0].outcome = Outcome::not_run;
    score_report(report, spec);
    CHECK(report.outcome == Outcome::not_run);
    CHECK(report.score == 12.0);
    CHECK(report.max_score == 12.0);
    REQUIRE(report.notes.size() == 1);
    CHECK(report.notes[0] == "case naive/N=16/seed=1 not graded (not_run)");
  }
  SUBCASE("a harness fault while timing makes the outcome harness_error and is left out") {
    GradeReport report = all_passed(1.1);
    report.performance[0].outcome = Outcome::harness_error;
    score_report(report, spec);
    CHECK(report.outcome == Outcome::harness_error);
    CHECK(report.score == 8.0);
    CHECK(report.max_score == 8.0);
    CHECK(report.notes == std::vector<std::string>{"performance of step tiled not graded (harness_error)"});
  }
  SUBCASE("a failed build is not gradable, scores 0 of the cases and targets listed, and keeps its outcome") {
    for (Outcome build : {Outcome::compile_error, Outcome::link_error, Outcome::forbidden_symbol,
                          Outcome::timeout}) {
      GradeReport report = all_passed(1.1);
      report.build.outcome = build;
      score_report(report, spec);
      CHECK_FALSE(report.gradable);
      CHECK(report.outcome == build);
      CHECK(report.score == 0.0);
      CHECK(report.max_score == 13.0);
      CHECK(report.cases[0].points == 0.0);
      CHECK(report.performance[0].points == 0.0);
    }
  }
  SUBCASE("a build that failed for the harness's own reasons is a harness error") {
    for (Outcome build : {Outcome::harness_error, Outcome::not_run, Outcome::crashed}) {
      GradeReport report;
      report.build.outcome = build;
      report.build.message = "nvcc was not found";
      score_report(report, spec);
      CHECK_FALSE(report.gradable);
      CHECK(report.outcome == Outcome::harness_error);
      CHECK(report.max_score == 0.0);  // nothing was listed to be graded
      CHECK(report.notes == std::vector<std::string>{
                                "not graded: cugrade could not build the submission for a reason "
                                "of its own (this does not count against you): nvcc was not found"});
    }
  }
  SUBCASE("the target is found by step, reference and size") {
    Spec two_sizes = spec;
    two_sizes.performance.push_back(PerformanceTarget{.step = "tiled", .reference = "tiled",
                                                      .params = {{"N", 8192}}, .full_credit_at = 2.0,
                                                      .no_credit_at = 1.0, .points = 3.0});
    GradeReport report = all_passed(1.5);
    report.performance.push_back(timed(1.5));
    report.performance[1].params = {{"N", 8192}};
    score_report(report, two_sizes);
    CHECK(report.performance[0].points == 5.0);
    CHECK(report.performance[1].max_points == 3.0);
    CHECK(report.performance[1].points == doctest::Approx(1.5));
  }
  SUBCASE("scoring twice gives the same report") {
    GradeReport report = all_passed(0.0);
    report.performance[0].outcome = Outcome::not_run;
    score_report(report, spec);
    GradeReport again = report;
    score_report(again, spec);
    CHECK(again == report);
  }
}

}  // namespace cugrade
