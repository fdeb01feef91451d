// Golden files: render_html's output is compared with harness/tests/data/golden/html_*.html
// (CUGRADE_UPDATE_GOLDEN=1 rewrites them; review with `git diff`). The pages are also rendered
// in headless Chromium by the `browser` test (harness/tests/browser/).
#include "report/html_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::render_html") {
  SUBCASE("a graded report") {
    test::check_golden("html_sample.html", render_html(test::sample_report()));
  }
  SUBCASE("a compile error") {
    test::check_golden("html_compile_error.html", render_html(test::compile_error_report()));
  }
  SUBCASE("an empty template: each step's identical failures in one row and one failure block") {
    const std::string page = render_html(test::empty_template_report());
    test::check_golden("html_empty_template.html", page);
    CHECK(page.find("<td>28 cases (n = 1, 7, 31, 32, 33, 255, …)</td>") != std::string::npos);
    std::size_t blocks = 0;
    for (std::size_t at = page.find("class=\"failure\""); at != std::string::npos;
         at = page.find("class=\"failure\"", at + 1))
      ++blocks;
    CHECK(blocks == 2);  // one per step, not 56
  }
  SUBCASE("the step summary opens the page, after the score") {
    const std::string page = render_html(test::sample_report());
    const std::size_t steps = page.find("<section id=\"steps\">");
    REQUIRE(steps != std::string::npos);
    CHECK(steps > page.find("class=\"score\""));
    CHECK(steps < page.find("<section id=\"build\">"));
    CHECK(page.find("<td>tiled</td><td class=\"num\">1/5</td><td class=\"num\">2/7</td>"
                    "<td class=\"num\">4.78/5</td><td class=\"diagnosis\">wrong_answer: check the bounds test "
                    "when loading the last tile</td>") != std::string::npos);
  }
  SUBCASE("student text is escaped everywhere: messages, diagnostics, file names, notes") {
    GradeReport report = test::sample_report();
    report.cases[3].message = "<script>alert(1)</script>";
    report.build.diagnostics[0].message = "<img src=x onerror=alert(2)>";
    report.submission = {"<b>.cu"};
    report.notes.push_back("a \"quoted\" & <i>note</i>");
    const std::string page = render_html(report);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(page.find("&lt;img src=x onerror=alert(2)&gt;") != std::string::npos);
    CHECK(page.find("&lt;b&gt;.cu") != std::string::npos);
    CHECK(page.find("a &quot;quoted&quot; &amp; &lt;i&gt;note&lt;/i&gt;") != std::string::npos);
  }
  SUBCASE("self-contained: no script, no external resource") {
    const std::string page = render_html(test::sample_report());
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("url(") == std::string::npos);
    CHECK(page.find("@import") == std::string::npos);
  }
  SUBCASE("hidden cases show no size, seed, values or message") {
    GradeReport report = test::sample_report();
    report.cases[5].message = "secret hint";
    const std::string page = render_html(report);
    CHECK(page.find("K=77") == std::string::npos);
    CHECK(page.find("secret hint") == std::string::npos);
    CHECK(page.find("hidden/tiled/2") == std::string::npos);
  }
  SUBCASE("the failed case lists its first mismatches and the chart has both bars per step") {
    const std::string page = render_html(test::sample_report());
    CHECK(page.find("<td>(row 64, col 4)</td><td class=\"num\">7.25</td><td class=\"num\">0</td>") !=
          std::string::npos);
    CHECK(page.find("aria-label=\"your times against the reference&#39;s, per timed step\"") !=
          std::string::npos);
    CHECK(page.find("<title>you: 1.234 ± 0.010 ms (40 samples)</title>") != std::string::npos);
    CHECK(page.find("<title>reference: 1.100 ± 0.004 ms (40 samples)</title>") != std::string::npos);
  }
}

}  // namespace cugrade
