// Golden files: report_to_prairielearn's output is compared with
// harness/tests/data/golden/prairielearn_*.json (CUGRADE_UPDATE_GOLDEN=1 rewrites them).
#include "report/prairielearn_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::report_to_prairielearn") {
  SUBCASE("a graded report: score in [0, 1], a test per case and target") {
    const nlohmann::json results = report_to_prairielearn(test::sample_report());
    test::check_golden("prairielearn_sample.json", results.dump(2) + "\n");
    CHECK(results["gradable"] == true);
    CHECK(results["score"] == doctest::Approx(7.78 / 15.0).epsilon(1e-4));
    CHECK(results["tests"].size() == 8);
  }
  SUBCASE("a compile error is not gradable, with the compiler's errors as format errors") {
    const nlohmann::json results = report_to_prairielearn(test::compile_error_report());
    test::check_golden("prairielearn_compile_error.json", results.dump(2) + "\n");
    CHECK(results["gradable"] == false);
    CHECK(results["format_errors"] ==
          nlohmann::json{"matmul.cu:17:5: error: identifier \"tile\" is undefined",
                         "matmul.cu:23:1: error: expected a \";\""});
  }
  SUBCASE("the score stays in [0, 1]") {
    GradeReport report = test::sample_report();
    report.score = 20.0;
    CHECK(report_to_prairielearn(report)["score"] == 1.0);
    report.max_score = 0.0;
    CHECK(report_to_prairielearn(report)["score"] == 0.0);
  }
  SUBCASE("hidden cases show only their outcome") {
    GradeReport report = test::sample_report();
    report.cases[5].message = "secret hint";
    const std::string text = report_to_prairielearn(report).dump();
    CHECK(text.find("K=77") == std::string::npos);
    CHECK(text.find("secret hint") == std::string::npos);
  }
}

}  // namespace cugrade
