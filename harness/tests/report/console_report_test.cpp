// Golden files: render_console's output is compared with harness/tests/data/golden/console_*.txt.
// After an intended change of layout, run this test with CUGRADE_UPDATE_GOLDEN=1 in the
// environment to rewrite the files instead, and review them with `git diff` before committing.
#include "report/console_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::render_console") {
  SUBCASE("a graded report, plain") {
    test::check_golden("console_sample.txt", render_console(test::sample_report(), false));
  }
  SUBCASE("a graded report, in colour") {
    test::check_golden("console_sample_colour.txt", render_console(test::sample_report(), true));
  }
  SUBCASE("a compile error, plain") {
    test::check_golden("console_compile_error.txt",
                       render_console(test::compile_error_report(), false));
  }
  SUBCASE("a compile error, in colour") {
    test::check_golden("console_compile_error_colour.txt",
                       render_console(test::compile_error_report(), true));
  }
  SUBCASE("no escape codes without colour") {
    CHECK(render_console(test::sample_report(), false).find('\x1b') == std::string::npos);
  }
  SUBCASE("a failing case shows where it is wrong") {
    const std::string text = render_console(test::sample_report(), false);
    CHECK(text.find("  FAIL tiled  K=47,M=65,N=33 seed=1   0/1\n") != std::string::npos);
    CHECK(text.find("312 of 2145 elements wrong (0 NaN/Inf); first: (row 64, col 0) expected 3.25 "
                    "got 0") != std::string::npos);
  }
  SUBCASE("a hidden case shows only its status and points") {
    const std::string text = render_console(test::sample_report(), false);
    CHECK(text.find("  FAIL tiled  hidden case             0/2\n") != std::string::npos);
    CHECK(text.find("check the bounds test") == text.rfind("check the bounds test"));
  }
}

}  // namespace cugrade
