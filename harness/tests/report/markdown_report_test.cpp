// Golden files: render_markdown's output is compared with harness/tests/data/golden/markdown_*.md.
// After an intended change of layout, run this test with CUGRADE_UPDATE_GOLDEN=1 in the
// environment to rewrite the files instead, and review them with `git diff` before committing.
#include "report/markdown_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::render_markdown") {
  SUBCASE("a graded report") {
    test::check_golden("markdown_sample.md", render_markdown(test::sample_report()));
  }
  SUBCASE("a compile error") {
    test::check_golden("markdown_compile_error.md", render_markdown(test::compile_error_report()));
  }
  SUBCASE("an empty template: each step's identical failures in one row") {
    const std::string text = render_markdown(test::empty_template_report());
    test::check_golden("markdown_empty_template.md", text);
    CHECK(text.find("| ❌ FAIL | naive | 28 cases (n = 1, 7, 31, 32, 33, 255, …) | 0/14 | wrong\\_answer: every "
                    "element is NaN or Inf") != std::string::npos);
    CHECK(text.find("n=1000 seed") == std::string::npos);  // no row of its own for any case
  }
  SUBCASE("the step summary opens the report, after the score") {
    const std::string text = render_markdown(test::sample_report());
    const std::size_t steps = text.find("|  | step | passed | correctness | performance | diagnosis |");
    REQUIRE(steps != std::string::npos);
    CHECK(steps > text.find("**Score: 7.78 / 15**"));
    CHECK(steps < text.find("### Build"));
    CHECK(text.find("| ❌ FAIL | tiled | 1/5 | 2/7 | 4.78/5 | wrong\\_answer: check the bounds test when "
                    "loading the last tile |") != std::string::npos);
    CHECK(text.find("| ✅ PASS | naive | 1/1 | 1/1 | 0/3 | all passed |") != std::string::npos);
  }
  SUBCASE("a compile error keeps the compiler's source line and caret") {
    const std::string text = render_markdown(test::compile_error_report());
    CHECK(text.find("matmul.cu:17:5: error: identifier \"tile\" is undefined\n"
                    "      tile[ty][tx] = A[row * K + tx];\n      ^\n") != std::string::npos);
  }
  SUBCASE("text that Markdown would act on is escaped") {
    GradeReport report = test::sample_report();
    report.cases[3].message = "a | b <int> *p";
    const std::string text = render_markdown(report);
    CHECK(text.find("crashed: a \\| b &lt;int&gt; \\*p") != std::string::npos);
  }
}

}  // namespace cugrade
