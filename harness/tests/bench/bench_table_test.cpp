#include "bench/bench_table.hpp"

#include <doctest/doctest.h>

#include "bench/bench_sample.hpp"

using namespace cugrade;
using cugrade::test::sample_ceilings;
using cugrade::test::timed_row;

namespace {
// 4000 × 4000 floats read and written: 128 MB a call.
constexpr double kBytes = 2.0 * 4.0 * 4000.0 * 4000.0;

BenchTable one_row_table(BenchCeiling ceiling) {
  BenchTable table;
  table.title = "t";
  table.params = {{"N", 4096}};
  table.ceiling = ceiling;
  table.rows = {{"tiled", "tiled", "", {}}};
  return table;
}
}  // namespace

TEST_CASE("bench::tabulate") {
  const BenchTable table = test::transpose_table();

  SUBCASE("median to GB/s, % of the copy bandwidth, speedup over the row above, Rate") {
    const auto result = tabulate(table,
                                 {timed_row(kBytes, 0.04), timed_row(kBytes, 0.4),
                                  timed_row(kBytes, 0.1), timed_row(kBytes, 0.08)},
                                 sample_ceilings(), 64.0);
    CHECK(result.title == "4000 × 4000 floats");
    CHECK(result.lecture == "lecture 001: GeForce GTX 280");
    CHECK(result.rate_unit == "GB/s");
    CHECK(result.ceiling == "copy");
    CHECK(result.ceiling_value == 4000.0);
    CHECK(result.cpu_gold_ms == 64.0);
    CHECK(result.notes.empty());
    REQUIRE(result.rows.size() == 4);
    const auto& copy = result.rows[0];
    CHECK(copy.label == "copy");
    CHECK(copy.lecture == "112.4 GB/s");
    CHECK(copy.outcome == Outcome::passed);
    CHECK(copy.time->median_ms == 0.04);
    CHECK(copy.rate == doctest::Approx(3200.0));               // 128 MB in 40 µs
    CHECK(*copy.percent_of_ceiling == doctest::Approx(80.0));  // of 4000 GB/s
    CHECK_FALSE(copy.speedup.has_value());                     // the first row has none
    CHECK(*copy.cpu_ratio == doctest::Approx(1600.0));         // 64 ms / 0.04 ms
    const auto& naive = result.rows[1];
    CHECK(naive.rate == doctest::Approx(320.0));
    CHECK(*naive.percent_of_ceiling == doctest::Approx(8.0));
    CHECK(*naive.speedup == doctest::Approx(0.1));  // slower than the row above
    CHECK(*naive.cpu_ratio == doctest::Approx(160.0));
    CHECK(*result.rows[2].speedup == doctest::Approx(4.0));   // 0.4 ms → 0.1 ms
    CHECK(*result.rows[3].speedup == doctest::Approx(1.25));  // against the row above, not the first
  }

  SUBCASE("a row that was not timed: no numbers, and no speedup for the row after it") {
    const auto result = tabulate(table,
                                 {timed_row(kBytes, 0.04),
                                  RowMeasurement{{.bytes = kBytes}, Outcome::crashed, "it died", {}},
                                  timed_row(kBytes, 0.1), timed_row(kBytes, 0.1)},
                                 sample_ceilings(), std::nullopt);
    const auto& died = result.rows[1];
    CHECK(died.outcome == Outcome::crashed);
    CHECK(died.message == "it died");
    CHECK_FALSE(died.time.has_value());
    CHECK(died.rate == 0.0);
    CHECK_FALSE(died.percent_of_ceiling.has_value());
    CHECK_FALSE(result.rows[2].speedup.has_value());
    CHECK(*result.rows[3].speedup == doctest::Approx(1.0));
    for (const auto& row : result.rows) CHECK_FALSE(row.cpu_ratio.has_value());  // gold not timed
  }

  SUBCASE("a task that ended without usable samples is a protocol error, not a time of 0") {
    RowMeasurement empty = timed_row(kBytes, 0.0);
    const auto result = tabulate(one_row_table(BenchCeiling::by_unit), {empty}, sample_ceilings(), 1.0);
    CHECK(result.rows[0].outcome == Outcome::protocol_error);
    CHECK(result.rows[0].message == "the runner reported no usable time for this row");
  }

  SUBCASE("TFLOP/s against SGEMM, or DGEMM when the table asks") {
    RowMeasurement row{Work{.bytes = 1.0, .flops = 2.0 * 4096.0 * 4096.0 * 4096.0}, Outcome::passed, "",
                       test::stats_of(10.0)};
    const auto sgemm = tabulate(one_row_table(BenchCeiling::by_unit), {row}, sample_ceilings(), {});
    CHECK(sgemm.rate_unit == "TFLOP/s");
    CHECK(sgemm.ceiling == "sgemm");
    CHECK(sgemm.rows[0].rate == doctest::Approx(13.743895));
    CHECK(*sgemm.rows[0].percent_of_ceiling == doctest::Approx(27.48779));  // of 50 TFLOP/s
    Ceilings with_dgemm = sample_ceilings();
    with_dgemm.dgemm_tflops = 25.0;
    const auto dgemm = tabulate(one_row_table(BenchCeiling::dgemm), {row}, with_dgemm, {});
    CHECK(dgemm.ceiling == "dgemm");
    CHECK(dgemm.ceiling_value == 25.0);
    CHECK(*dgemm.rows[0].percent_of_ceiling == doctest::Approx(54.97558));
  }

  SUBCASE("the read bandwidth, for a kernel that only reads") {
    const auto result = tabulate(one_row_table(BenchCeiling::read), {timed_row(4.4e9, 1000.0)},
                                 sample_ceilings(), {});
    CHECK(result.ceiling == "read");
    CHECK(*result.rows[0].percent_of_ceiling == doctest::Approx(0.1));  // 4.4 GB/s of 4400
  }

  SUBCASE("why a % column is empty: not calibrated, not measured, nothing it counts") {
    const auto uncalibrated = tabulate(one_row_table(BenchCeiling::by_unit), {timed_row(1e9, 1.0)},
                                       std::nullopt, {});
    CHECK(uncalibrated.ceiling == "copy");
    CHECK(uncalibrated.ceiling_value == 0.0);
    CHECK_FALSE(uncalibrated.rows[0].percent_of_ceiling.has_value());
    CHECK(uncalibrated.notes ==
          std::vector<std::string>{
              "no % of copy bandwidth: this GPU is not calibrated (run `cugrade calibrate`)"});
    const auto no_dgemm = tabulate(one_row_table(BenchCeiling::dgemm), {timed_row(1e9, 1.0)},
                                   sample_ceilings(), {});
    CHECK(no_dgemm.notes ==
          std::vector<std::string>{"no % of cuBLAS DGEMM: this GPU's calibration has not "
                                   "measured it (run `cugrade calibrate --force`)"});
    const auto no_flops = tabulate(one_row_table(BenchCeiling::sgemm), {timed_row(1e9, 1.0)},
                                   sample_ceilings(), {});
    CHECK_FALSE(no_flops.rows[0].percent_of_ceiling.has_value());
    CHECK(no_flops.notes ==
          std::vector<std::string>{"no % of cuBLAS SGEMM: the grader's work model counts "
                                   "nothing that ceiling measures"});
  }

  SUBCASE("a domain unit has no ceiling unless the table names one") {
    RowMeasurement row{Work{.items = 4e8, .rate_unit = "G interactions/s"}, Outcome::passed, "",
                       test::stats_of(2.0)};
    const auto result = tabulate(one_row_table(BenchCeiling::by_unit), {row}, sample_ceilings(), {});
    CHECK(result.rate_unit == "G interactions/s");
    CHECK(result.ceiling.empty());
    CHECK(result.rows[0].rate == doctest::Approx(200.0));
    CHECK_FALSE(result.rows[0].percent_of_ceiling.has_value());
    CHECK(result.notes.empty());
  }
}

TEST_CASE("bench::choose_ceiling") {
  const auto c = sample_ceilings();
  CHECK(choose_ceiling(BenchCeiling::by_unit, "GB/s", c).key == "copy");
  CHECK(choose_ceiling(BenchCeiling::by_unit, "TFLOP/s", c).key == "sgemm");
  CHECK(choose_ceiling(BenchCeiling::by_unit, "G interactions/s", c).key.empty());
  CHECK(choose_ceiling(BenchCeiling::none, "GB/s", c).key.empty());
  CHECK(choose_ceiling(BenchCeiling::read, "GB/s", c).value == 4400.0);
  CHECK(choose_ceiling(BenchCeiling::sgemm, "GB/s", c).value == 50.0);
  CHECK(choose_ceiling(BenchCeiling::copy, "GB/s", std::nullopt).value == 0.0);
}
