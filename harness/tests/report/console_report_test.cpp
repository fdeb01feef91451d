// Golden files: render_console's output is compared with harness/tests/data/golden/console_*.txt.
// After an intended change of layout, run this test with CUGRADE_UPDATE_GOLDEN=1 in the
// environment to rewrite the files instead, and review them with `git diff` before committing.
#include "report/console_report.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::render_console") {
  const auto every_case = ConsoleDetail::every_case;
  SUBCASE("a graded report, plain: the build, performance, one row per step, the score") {
    test::check_golden("console_sample.txt", render_console(test::sample_report(), false));
  }
  SUBCASE("a graded report with -v: every case too, plain and in colour") {
    test::check_golden("console_sample_verbose.txt", render_console(test::sample_report(), false, every_case));
    test::check_golden("console_sample_colour.txt", render_console(test::sample_report(), true, every_case));
  }
  SUBCASE("a compile error, plain and in colour") {
    test::check_golden("console_compile_error.txt", render_console(test::compile_error_report(), false));
    test::check_golden("console_compile_error_colour.txt",
                       render_console(test::compile_error_report(), true));
  }
  SUBCASE("an empty template, with -v: every case failing the same way, on a few lines") {
    const std::string text = render_console(test::empty_template_report(), false, every_case);
    test::check_golden("console_empty_template_verbose.txt", text);
    // 58 failing cases: a header, the build, each step's group and hidden case, notes, the
    // steps and the score; not one line per case.
    CHECK(std::count(text.begin(), text.end(), '\n') < 30);
    CHECK(text.find("  FAIL naive        28 cases (n = 1, 7, 31, 32, 33, 255, …)   0/14\n") != std::string::npos);
  }
  SUBCASE("a student's text cannot drive the terminal: its escape bytes are shown, not sent") {
    GradeReport report = test::compile_error_report();
    report.build.diagnostics.front().message = "unrecognized token\n    int x = \x1b]52;c;cHduZWQ=\x07\x1b[2J;";
    report.notes.push_back("\x1b[31mred\x1b[0m");
    const std::string text = render_console(report, false, ConsoleDetail::every_case);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\x07') == std::string::npos);
    CHECK(text.find("int x = \\x1b]52;c;cHduZWQ=\\x07\\x1b[2J;") != std::string::npos);
  }
  SUBCASE("no escape codes without colour") {
    CHECK(render_console(test::sample_report(), false, every_case).find('\x1b') == std::string::npos);
  }
  SUBCASE("without -v no case is listed, and a line says how to see them") {
    const std::string text = render_console(test::sample_report(), false);
    CHECK(text.find("Correctness") == std::string::npos);
    CHECK(text.find("K=47,M=65,N=33 seed=1") == std::string::npos);
    CHECK(text.find("(each case in detail: run cugrade check again with -v)") != std::string::npos);
    CHECK(render_console(test::perfect_report(), false).find("with -v") == std::string::npos);
  }
  SUBCASE("the steps close the report, just before the score") {
    const std::string text = render_console(test::sample_report(), false);
    const std::size_t steps = text.find("Steps\n");
    REQUIRE(steps != std::string::npos);
    CHECK(steps > text.find("Performance\n"));
    CHECK(steps > text.find("Notes\n"));
    CHECK(text.find("  FAIL  tiled  1/5     2/7          4.78/5       wrong_answer: check the bounds test "
                    "when loading the last tile\n") != std::string::npos);
    CHECK(text.find("Score: 7.78 / 15") > steps);
  }
  SUBCASE("a compile error keeps nvcc's source line and caret, without -v") {
    const std::string text = render_console(test::compile_error_report(), false);
    CHECK(text.find("  matmul.cu:17:5: error: identifier \"tile\" is undefined\n"
                    "        tile[ty][tx] = A[row * K + tx];\n"
                    "        ^\n") != std::string::npos);
    CHECK(text.find("  SKIP  naive  0/1     0/1          not graded   not run: the build failed\n") !=
          std::string::npos);
  }
  SUBCASE("a failing case shows where it is wrong (-v)") {
    const std::string text = render_console(test::sample_report(), false, every_case);
    CHECK(text.find("  FAIL tiled  K=47,M=65,N=33 seed=1   0/1\n") != std::string::npos);
    CHECK(text.find("312 of 2145 elements wrong (0 NaN/Inf); first: (row 64, col 0) expected 3.25 "
                    "got 0") != std::string::npos);
  }
  SUBCASE("a hidden case shows only its status and points (-v)") {
    const std::string text = render_console(test::sample_report(), false, every_case);
    CHECK(text.find("  FAIL tiled  hidden case             0/2\n") != std::string::npos);
    CHECK(text.find("check the bounds test", text.find("Correctness")) ==
          text.rfind("check the bounds test", text.find("Steps\n")));
  }
}

}  // namespace cugrade
