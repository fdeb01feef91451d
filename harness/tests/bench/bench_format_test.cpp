#include "bench/bench_format.hpp"

#include <doctest/doctest.h>

#include "bench/bench_sample.hpp"

using namespace cugrade;

TEST_CASE("bench::format_bench_ms") {
  CHECK(format_bench_ms(8.054) == "8.054 ms");
  CHECK(format_bench_ms(0.15234) == "0.1523 ms");
  CHECK(format_bench_ms(134.0) == "134 ms");
  CHECK(format_bench_ms(13821.4) == "13821 ms");
}

TEST_CASE("bench::format_bench_rate") {
  CHECK(format_bench_rate(75.12) == "75.1");
  CHECK(format_bench_rate(3532.4) == "3532");
  CHECK(format_bench_rate(5.3) == "5.3");
}

TEST_CASE("bench::bench_headings") {
  const BenchReport report = test::sample_bench_report();
  const BenchTableResult& lecture = report.assignments[0].tables[0];
  const BenchTableResult& large = report.assignments[0].tables[1];
  SUBCASE("every column when there is a ceiling, a CPU time and lecture figures") {
    CHECK(bench_headings(lecture) == std::vector<std::string>{"Kernel", "Step", "Median", "GB/s",
                                                              "% of copy bandwidth", "Speedup",
                                                              "Rate", "Lecture"});
    CHECK(bench_numeric_columns(lecture) ==
          std::vector<bool>{false, false, true, true, true, true, true, false});
  }
  SUBCASE("no Rate without a CPU time, no Lecture without figures; the % column stays") {
    CHECK(bench_headings(large) == std::vector<std::string>{"Kernel", "Step", "Median", "GB/s",
                                                            "% of cuBLAS DGEMM", "Speedup"});
  }
}

TEST_CASE("bench::bench_cells") {
  const BenchReport report = test::sample_bench_report();
  const BenchTableResult& table = report.assignments[0].tables[0];
  CHECK(bench_cells(table, table.rows[1]) ==
        std::vector<std::string>{"mtran", "naive", "0.4 ms", "320", "8 %", "0.10×", "160×",
                                 "5.3 GB/s"});
  CHECK(bench_cells(table, table.rows[3]) ==
        std::vector<std::string>{"padded | tile[32][33]", "padded", "not timed", "—", "—", "—",
                                 "—", "93.4 GB/s"});
}

TEST_CASE("bench::bench_footnotes") {
  const BenchReport report = test::sample_bench_report();
  CHECK(bench_footnotes(report.assignments[0].tables[0]) ==
        std::vector<std::string>{"padded | tile[32][33] (crashed): the reference crashed: the "
                                 "program died from SIGSEGV"});
}
