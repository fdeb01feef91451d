// Golden files: the bench's console and Markdown tables are compared with
// harness/tests/data/golden/bench_sample.{txt,md} (CUGRADE_UPDATE_GOLDEN=1 rewrites them).
#include "bench/bench_text.hpp"

#include <doctest/doctest.h>

#include "bench/bench_sample.hpp"
#include "report/golden.hpp"

using namespace cugrade;

TEST_CASE("bench::render_bench_console") {
  SUBCASE("aligned columns, a footnote per untimed row, the table's notes") {
    test::check_golden("bench_sample.txt", render_bench_console(test::sample_bench_report()));
  }
  SUBCASE("an uncalibrated GPU says so once, above the tables") {
    BenchReport report = test::sample_bench_report();
    report.ceilings.reset();
    CHECK(render_bench_console(report).find(
              "\nCeilings: not calibrated (run `cugrade calibrate`): no % column\n") !=
          std::string::npos);
  }
}

TEST_CASE("bench::render_bench_markdown") {
  test::check_golden("bench_sample.md", render_bench_markdown(test::sample_bench_report()));
}
