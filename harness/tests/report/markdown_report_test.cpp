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
  SUBCASE("text that Markdown would act on is escaped") {
    GradeReport report = test::sample_report();
    report.cases[3].message = "a | b <int> *p";
    const std::string text = render_markdown(report);
    CHECK(text.find("crashed: a \\| b &lt;int&gt; \\*p") != std::string::npos);
  }
}

}  // namespace cugrade
