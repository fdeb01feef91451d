#include "report/report_format.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::format_points") {
  SUBCASE("at most two decimals, no trailing zeros") {
    CHECK(format_points(17.5) == "17.5");
    CHECK(format_points(20.0) == "20");
    CHECK(format_points(4.7849) == "4.78");
    CHECK(format_points(2.0 / 3.0) == "0.67");
    CHECK(format_points(0.0) == "0");
    CHECK(format_points(-0.0) == "0");
  }
  SUBCASE("points of a maximum") { CHECK(format_score(4.78, 5.0) == "4.78/5"); }
}

TEST_CASE("report::format_coords") {
  SUBCASE("(row, col) for a matrix") {
    CHECK(format_coords(Mismatch{.index = 2112, .coords = {64, 0}}) == "(row 64, col 0)");
  }
  SUBCASE("[i] for a vector") { CHECK(format_coords(Mismatch{.index = 7, .coords = {7}}) == "[7]"); }
  SUBCASE("every index beyond two dimensions") {
    CHECK(format_coords(Mismatch{.coords = {1, 2, 3}}) == "[1, 2, 3]");
  }
  SUBCASE("the flat index when coordinates are unknown") {
    CHECK(format_coords(Mismatch{.index = 2145}) == "[2145]");
  }
}

TEST_CASE("report::describe_comparison") {
  SUBCASE("counts and the first five mismatches") {
    const Comparison c = test::sample_wrong_tile().comparisons[0];
    CHECK(describe_comparison(c) ==
          "312 of 2145 elements wrong (0 NaN/Inf); first: (row 64, col 0) expected 3.25 got 0, "
          "(row 64, col 1) expected 4.25 got 0, (row 64, col 2) expected 5.25 got 0, "
          "(row 64, col 3) expected 6.25 got 0, (row 64, col 4) expected 7.25 got 0");
  }
  SUBCASE("no more than five") {
    Comparison c{.checked = 100, .wrong = 7, .nonfinite = 7};
    for (int i = 0; i < 7; ++i)
      c.first.push_back(Mismatch{.index = i, .coords = {i}, .expected = 1.0, .actual = std::nan("")});
    CHECK(describe_comparison(c) ==
          "7 of 100 elements wrong (7 NaN/Inf); first: [0] expected 1 got NaN, [1] expected 1 got "
          "NaN, [2] expected 1 got NaN, [3] expected 1 got NaN, [4] expected 1 got NaN");
  }
  SUBCASE("a hidden case's comparison has only counts") {
    CHECK(describe_comparison(Comparison{.array = "C", .wrong = 312}) ==
          "312 elements wrong (0 NaN/Inf)");
  }
}

TEST_CASE("report::format_diagnostic") {
  CHECK(format_diagnostic({"matmul.cu", 17, 5, "error", "identifier \"tile\" is undefined"}) ==
        "matmul.cu:17:5: error: identifier \"tile\" is undefined");
  CHECK(format_diagnostic({"matmul.cu", 17, 0, "error", "x"}) == "matmul.cu:17: error: x");
  CHECK(format_diagnostic({"", 0, 0, "error", "undefined reference to `matmul_tiled'"}) ==
        "error: undefined reference to `matmul_tiled'");
}

TEST_CASE("report::quoted_source_line") {
  CHECK(quoted_source_line("    C[i] = A[i] + B[i];\r") == "`C[i] = A[i] + B[i];`");
  CHECK(quoted_source_line("\t \t") == "``");
  CHECK(quoted_source_line("abcdefgh", 5) == "`abcde…`");
  CHECK(quoted_source_line("abcdé", 5) == "`abcd…`");  // é's two bytes are not cut in two
}

TEST_CASE("report::status_word") {
  CHECK(status_word(Outcome::passed) == "PASS");
  CHECK(status_word(Outcome::wrong_answer) == "FAIL");
  CHECK(status_word(Outcome::timeout) == "FAIL");
  CHECK(status_word(Outcome::not_run) == "SKIP");
  CHECK(status_word(Outcome::harness_error) == "SKIP");
}

TEST_CASE("report::performance_row") {
  const GradeReport report = test::sample_report();
  SUBCASE("a timed step") {
    const PerformanceRow row = performance_row(report.performance[0]);
    CHECK(row.size == "K=4096,M=4096,N=4096");
    CHECK(row.time == "1.234 ± 0.010 ms");
    CHECK(row.reference == "1.100 ± 0.004 ms");
    CHECK(row.ratio == "0.89×");
    CHECK(row.rate == "111.4 TFLOP/s");
    CHECK(row.ceiling == "22.5 %");
    CHECK(row.points == "4.78/5");
    CHECK(row.flags == "");
  }
  SUBCASE("sub-millisecond times in microseconds") {
    CHECK(performance_row(report.performance[1]).time == "2.000 ± 0.250 µs");
  }
  SUBCASE("a step that was not timed") {
    const PerformanceRow row = performance_row(PerformanceResult{
        .step = "tiled", .outcome = Outcome::not_run, .max_points = 5.0});
    CHECK(row.time == "-");
    CHECK(row.ratio == "-");
    CHECK(row.rate == "-");
    CHECK(row.points == "not graded");
  }
}

}  // namespace cugrade
