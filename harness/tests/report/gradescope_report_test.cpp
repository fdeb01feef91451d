// Golden files: report_to_gradescope's output is compared with
// harness/tests/data/golden/gradescope_*.json (CUGRADE_UPDATE_GOLDEN=1 rewrites them).
#include "report/gradescope_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::report_to_gradescope") {
  SUBCASE("a graded report") {
    test::check_golden("gradescope_sample.json", report_to_gradescope(test::sample_report()).dump(2) + "\n");
  }
  SUBCASE("a compile error: the build test says why, nothing else ran") {
    const nlohmann::json results = report_to_gradescope(test::compile_error_report());
    test::check_golden("gradescope_compile_error.json", results.dump(2) + "\n");
    CHECK(results["score"] == 0.0);
    REQUIRE(results["tests"].size() == 1);
    CHECK(results["tests"][0]["status"] == "failed");
    CHECK(results["tests"][0]["visibility"] == "visible");
  }
  SUBCASE("the shape Gradescope reads: score, and per test score/max_score/status/name/output/visibility") {
    const nlohmann::json results = report_to_gradescope(test::sample_report());
    CHECK(results["score"] == 7.78);
    CHECK(results["output_format"] == "md");
    for (const nlohmann::json& test : results["tests"]) {
      for (const char* key : {"score", "max_score", "status", "name", "output", "visibility"})
        CHECK_MESSAGE(test.contains(key), test.dump() << " lacks " << key);
      CHECK((test["status"] == "passed" || test["status"] == "failed"));
    }
  }
  SUBCASE("performance not graded (CPU backend, --no-performance): no failed 0/0 tests for a perfect student") {
    GradeReport report = test::sample_report();
    for (PerformanceResult& p : report.performance) {
      p = PerformanceResult{.step = p.step, .reference = p.reference, .params = p.params, .outcome = Outcome::not_run,
                            .max_points = p.max_points,
                            .message = "performance is graded on a GPU only; this ran on the CPU backend"};
    }
    const nlohmann::json results = report_to_gradescope(report);
    for (const nlohmann::json& test : results["tests"])
      CHECK_MESSAGE(test["name"].get<std::string>().find("performance") == std::string::npos, test.dump());
    CHECK(results["tests"].size() == 1 + report.cases.size());
    CHECK(results["output"].get<std::string>().find("performance targets") == std::string::npos);
  }
  SUBCASE("hidden cases stay hidden: after_published, no size, seed, values or message") {
    GradeReport report = test::sample_report();
    report.cases[5].message = "secret hint";
    const nlohmann::json results = report_to_gradescope(report);
    const std::string text = results.dump();
    CHECK(text.find("K=77") == std::string::npos);
    CHECK(text.find("secret hint") == std::string::npos);
    CHECK(text.find(std::to_string(report.cases[4].seed)) == std::string::npos);
    // The visible copy of the same wrong tile lists its values once; the hidden one adds none.
    const std::size_t first = text.find("expected 3.25");
    REQUIRE(first != std::string::npos);
    CHECK(text.find("expected 3.25", first + 1) == std::string::npos);
    CHECK(results["tests"][6]["name"] == "tiled: hidden case 2");
    CHECK(results["tests"][6]["output"] == "wrong_answer");
    CHECK(results["tests"][6]["visibility"] == "after_published");
  }
  SUBCASE("leaderboard entries: the times the class's leaderboard ranks, and only those") {
    const nlohmann::json perfect = report_to_gradescope(test::perfect_report());
    REQUIRE(perfect.contains("leaderboard"));
    CHECK(perfect["leaderboard"] ==
          nlohmann::json::parse(R"j([{"name": "tiled time (ms)", "value": 1.234, "order": "asc"}])j"));
    // A wrong answer among the cases: its time, however good, stands on no board.
    CHECK_FALSE(report_to_gradescope(test::sample_report()).contains("leaderboard"));
    GradeReport unsealed = test::perfect_report();
    unsealed.notes.push_back("not sealed: no bubblewrap");
    CHECK_FALSE(report_to_gradescope(unsealed).contains("leaderboard"));
    GradeReport two_sizes = test::perfect_report();
    two_sizes.performance.push_back(two_sizes.performance[0]);
    two_sizes.performance[1].params = {{"M", 64}, {"N", 64}, {"K", 64}};
    two_sizes.performance[1].student->median_ms = 0.01;
    const nlohmann::json both = report_to_gradescope(two_sizes)["leaderboard"];
    REQUIRE(both.size() == 2);
    CHECK(both[0]["name"] == "tiled at K=4096,M=4096,N=4096 time (ms)");
    CHECK(both[1]["name"] == "tiled at K=64,M=64,N=64 time (ms)");
    CHECK(both[1]["value"] == 0.01);
  }
}

}  // namespace cugrade
