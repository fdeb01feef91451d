#include "report/step_summary.hpp"

#include <doctest/doctest.h>

#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::summarize_steps") {
  SUBCASE("one row per step, in the report's order, with its cases and points") {
    const std::vector<StepSummary> rows = summarize_steps(test::sample_report());
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].step == "naive");
    CHECK(rows[0].status == Outcome::passed);
    CHECK(rows[0].diagnosis == "all passed");
    CHECK(rows[0].passed == 1);
    CHECK(rows[0].cases == 1);
    CHECK(rows[0].points == 1.0);
    CHECK(rows[0].max_points == 1.0);
    CHECK(rows[0].performance_points == 0.0);  // the impossible time earned nothing
    CHECK(rows[0].performance_max == 3.0);
    CHECK(rows[1].step == "tiled");
    CHECK(rows[1].passed == 1);
    CHECK(rows[1].cases == 5);
    CHECK(rows[1].points == 2.0);
    CHECK(rows[1].max_points == 7.0);
    CHECK(rows[1].performance_points == doctest::Approx(4.78));
  }
  SUBCASE("the diagnosis is a mistake model's message before the first failure's pattern") {
    GradeReport report = test::sample_report();
    CHECK(summarize_steps(report)[1].diagnosis ==
          "wrong_answer: check the bounds test when loading the last tile");
    report.cases[1].message.clear();  // no model named it: the pattern speaks
    CHECK(summarize_steps(report)[1].diagnosis ==
          "wrong_answer: only the last partial tile is wrong (row 64, columns 0-32)");
    report.cases[1].outcome = Outcome::passed;  // the crash is the first failure left
    CHECK(summarize_steps(report)[1].status == Outcome::wrong_answer);
    CHECK(summarize_steps(report)[1].diagnosis == "wrong_answer: y: 2 of 1000 elements wrong");
  }
  SUBCASE("without a mistake model, the failure most cases share") {
    GradeReport report = test::empty_template_report();
    report.cases[0].comparisons[0].pattern = "the only element is wrong";  // n = 1 alone
    CHECK(gather_cases(report, "naive").size() == 3);
    CHECK(summarize_steps(report)[0].diagnosis.starts_with("wrong_answer: every element is NaN or Inf"));
  }
  SUBCASE("a crash says what crashed, in one line") {
    GradeReport report = test::sample_report();
    report.cases[1].outcome = report.cases[2].outcome = Outcome::passed;
    report.cases[3].message = "the runner died from signal 11\nin matmul_tiled";
    CHECK(summarize_steps(report)[1].diagnosis == "crashed: the runner died from signal 11");
  }
  SUBCASE("a hang before cases left unrun: the hang, not the many cases it left") {
    GradeReport report = test::perfect_report();
    for (std::size_t i = 1; i < report.cases.size(); ++i) {
      if (report.cases[i].step != report.cases[1].step || report.cases[i].visibility == Visibility::hidden) continue;
      report.cases[i].outcome = Outcome::timeout;
      report.cases[i].message = i == 1 ? "did not finish within 10 s and was stopped"
                                       : "not run: an earlier case of this step timed out (case 1)";
    }
    CHECK(summarize_steps(report)[1].diagnosis == "timeout: did not finish within 10 s and was stopped");
  }
  SUBCASE("only a hidden case failed: its outcome, never its message") {
    GradeReport report = test::perfect_report();
    report.cases[5].outcome = Outcome::wrong_answer;
    report.cases[5].message = "a secret";
    const StepSummary row = summarize_steps(report)[1];
    CHECK(row.diagnosis == "wrong_answer in a hidden case");
    CHECK(row.diagnosis.find("secret") == std::string::npos);
  }
  SUBCASE("after a failed build every step is not run, performance not graded") {
    const std::vector<StepSummary> rows = summarize_steps(test::compile_error_report());
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].status == Outcome::not_run);
    CHECK(rows[0].diagnosis == "not run: the build failed");
    CHECK_FALSE(rows[0].performance_max.has_value());
  }
  SUBCASE("no build to speak of: a refused submission says why, a fault of cugrade's says it is one") {
    GradeReport refused = test::compile_error_report();
    refused.outcome = Outcome::not_run;
    refused.build.outcome = Outcome::not_run;
    refused.build.message = "huge.cu holds 1.1 MiB, more than the 1024 KiB a file may hold";
    CHECK(summarize_steps(refused)[0].diagnosis == "not run: huge.cu holds 1.1 MiB, more than the 1024 KiB a file may hold");
    GradeReport fault = test::compile_error_report();
    fault.outcome = Outcome::harness_error;
    fault.build.outcome = Outcome::passed;
    fault.notes = {"no usable NVIDIA GPU here"};
    CHECK(summarize_steps(fault)[0].diagnosis ==
          "not run: a fault of cugrade's, not of the submission (see the notes)");
  }
  SUBCASE("a correct step that lost performance points: why it is slower, beside all passed") {
    GradeReport report = test::perfect_report();
    report.performance.front().points = 2.0;
    report.performance.front().diagnosis = PerformanceDiagnosis{.cause = "uncoalesced_stores",
                                                                .message = "your global stores need 8× the sectors"};
    CHECK(summarize_steps(report)[1].diagnosis == "all passed; slower: your global stores need 8× the sectors");
    SUBCASE("counters that could not be had, or said nothing, leave it at all passed") {
      report.performance.front().diagnosis->cause = "unavailable";
      CHECK(summarize_steps(report)[1].diagnosis == "all passed");
      report.performance.front().diagnosis->cause = "none";
      CHECK(summarize_steps(report)[1].diagnosis == "all passed");
    }
  }
  SUBCASE("a step without performance targets is not graded for performance") {
    const std::vector<StepSummary> rows = summarize_steps(test::empty_template_report());
    REQUIRE(rows.size() == 2);
    CHECK_FALSE(rows[0].performance_max.has_value());
    CHECK(rows[0].passed == 0);
    CHECK(rows[0].cases == 29);
  }
}

TEST_CASE("report::gather_cases") {
  SUBCASE("an empty template's identical failures are one group with every size once") {
    const GradeReport report = test::empty_template_report();
    const std::vector<SimilarCases> groups = gather_cases(report, "naive");
    REQUIRE(groups.size() == 2);  // the 28 visible failures and the hidden one
    CHECK(groups[0].cases.size() == 28);
    CHECK(groups[0].max_points == 14.0);
    CHECK(similar_cases_label(groups[0]) == "28 cases (n = 1, 7, 31, 32, 33, 255, …)");
    CHECK(similar_cases_line(groups[0]) ==
          "wrong_answer in 28 cases (n = 1, 7, 31, 32, 33, 255, …): every element is NaN or Inf: the output "
          "was never written (cugrade fills outputs with NaN before the call)");
    CHECK(groups[1].hidden);
    CHECK(similar_cases_line(groups[1]) == "wrong_answer in a hidden case");
  }
  SUBCASE("different failures stay apart; passes come first") {
    const GradeReport report = test::sample_report();
    const std::vector<SimilarCases> groups = gather_cases(report, "tiled");
    REQUIRE(groups.size() == 5);
    CHECK(groups[0].outcome == Outcome::passed);
    CHECK(groups[0].hidden);
    CHECK(groups[1].outcome == Outcome::wrong_answer);
    CHECK(groups[1].cases.front()->id == "tiled/K=47,M=65,N=33/seed=1");
    CHECK(groups[3].outcome == Outcome::crashed);
    CHECK(similar_cases_label(groups[3]) == "K=1,M=1,N=1 seed=1");
  }
  SUBCASE("sizes of several parameters are listed whole") {
    GradeReport report = test::sample_report();
    report.cases[2] = report.cases[1];
    report.cases[2].params = {{"M", 1}, {"N", 1000}, {"K", 1}};
    const std::vector<SimilarCases> groups = gather_cases(report, "tiled");
    CHECK(similar_cases_label(groups[1]) == "2 cases (K=47,M=65,N=33; K=1,M=1,N=1000)");
    const std::vector<std::string> details = similar_cases_details(groups[1]);
    REQUIRE(details.size() == 2);
    CHECK(details[0] == "wrong_answer: check the bounds test when loading the last tile");
    CHECK(details[1].starts_with("e.g. K=47,M=65,N=33 seed=1: 312 of 2145 elements wrong"));
  }
}

TEST_CASE("report::one_line") {
  CHECK(one_line("first\nsecond", 80) == "first");
  CHECK(one_line("abcdef", 6) == "abcdef");
  CHECK(one_line("abcdefg", 6) == "abcde…");
  CHECK(one_line("±±±±±±±", 4) == "±±±…");  // characters, not bytes
}

}  // namespace cugrade
