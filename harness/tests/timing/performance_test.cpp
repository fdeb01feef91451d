#include <doctest/doctest.h>

#include <algorithm>

#include "timing/performance.hpp"

using namespace cugrade;

namespace {
TimingStats timed(double median_ms, double rse = 0.001, std::size_t wall_samples = 0) {
  TimingStats s;
  s.median_ms = s.min_ms = s.max_ms = s.q1_ms = s.q3_ms = median_ms;
  s.rse = rse;
  s.samples = 20;
  s.wall_clock_samples = wall_samples;
  return s;
}

PerformanceResult result_of(TimingStats student, std::optional<TimingStats> reference) {
  PerformanceResult r;
  r.student = student;
  r.reference_time = reference;
  r.max_points = 2.0;
  r.points = 1.0;
  return r;
}

bool has_flag(const PerformanceResult& r, const std::string& flag) {
  return std::find(r.flags.begin(), r.flags.end(), flag) != r.flags.end();
}

const Ceilings kCeilings{.copy_gbps = 2500.0, .sgemm_tflops = 50.0, .gpu = "H100"};
}  // namespace

TEST_CASE("timing::parse_rate_unit") {
  CHECK(parse_rate_unit("GB/s").counts == RateUnit::Counts::bytes);
  CHECK(parse_rate_unit("GB/s").scale == 1e9);
  CHECK(parse_rate_unit("MB/s").scale == 1e6);
  CHECK(parse_rate_unit("TFLOP/s").counts == RateUnit::Counts::flops);
  CHECK(parse_rate_unit("TFLOP/s").scale == 1e12);
  CHECK(parse_rate_unit("G interactions/s").counts == RateUnit::Counts::items);
  CHECK(parse_rate_unit("G interactions/s").scale == 1e9);
  CHECK(parse_rate_unit("kernels/s").scale == 1.0);
}

TEST_CASE("timing::rate_unit_for") {
  CHECK(rate_unit_for(Work{.bytes = 1.0, .flops = 0.0}) == "GB/s");
  CHECK(rate_unit_for(Work{.bytes = 1.0, .flops = 2.0}) == "TFLOP/s");
  CHECK(rate_unit_for(Work{.items = 3.0, .rate_unit = "G interactions/s"}) == "G interactions/s");
}

TEST_CASE("timing::work_rate") {
  const Work work{.bytes = 3e9, .flops = 2e12, .items = 4e9};
  CHECK(work_quantity(work, RateUnit::Counts::bytes) == 3e9);
  CHECK(work_quantity(work, RateUnit::Counts::flops) == 2e12);
  CHECK(work_quantity(work, RateUnit::Counts::items) == 4e9);
  CHECK(work_rate(work, parse_rate_unit("GB/s"), 1000.0) == doctest::Approx(3.0));
  CHECK(work_rate(work, parse_rate_unit("TFLOP/s"), 500.0) == doctest::Approx(4.0));
  CHECK(work_rate(work, parse_rate_unit("G pairs/s"), 2.0) == doctest::Approx(2000.0));
  CHECK(work_rate(work, parse_rate_unit("GB/s"), 0.0) == 0.0);  // no time, no rate
}

TEST_CASE("timing::assess_performance") {
  SUBCASE("ratio, GB/s and percent of the copy bandwidth") {
    PerformanceResult r = result_of(timed(2.0), timed(1.0));
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(r.ratio == 0.5);
    CHECK(r.rate_unit == "GB/s");
    CHECK(r.student_rate == doctest::Approx(1000.0));
    CHECK(r.reference_rate == doctest::Approx(2000.0));
    REQUIRE(r.percent_of_ceiling.has_value());
    CHECK(*r.percent_of_ceiling == doctest::Approx(40.0));
    CHECK(r.flags.empty());
    CHECK(r.points == 1.0);  // scoring is not this function's job
    CHECK(r.message == "2 ms against 1 ms for the reference: 0.50× its speed. 1000 GB/s is 40 % "
                       "of this GPU's copy bandwidth.");
  }
  SUBCASE("TFLOP/s against the SGEMM rate; the unit defaults from the work") {
    PerformanceResult r = result_of(timed(100.0), timed(80.0));
    assess_performance(r, Work{1e9, 2e12, 0.0, ""}, kCeilings);
    CHECK(r.rate_unit == "TFLOP/s");
    CHECK(r.ratio == doctest::Approx(0.8));
    CHECK(r.student_rate == doctest::Approx(20.0));
    CHECK(r.reference_rate == doctest::Approx(25.0));
    CHECK(*r.percent_of_ceiling == doctest::Approx(40.0));
  }
  SUBCASE("a domain unit counts items and has no ceiling") {
    PerformanceResult r = result_of(timed(10.0), timed(10.0));
    assess_performance(r, Work{0.0, 0.0, 1e9, "G interactions/s"}, kCeilings);
    CHECK(r.ratio == 1.0);
    CHECK(r.student_rate == doctest::Approx(100.0));
    CHECK_FALSE(r.percent_of_ceiling.has_value());
    CHECK(r.message == "10 ms against 10 ms for the reference: 1.00× its speed. 100 G interactions/s.");
  }
  SUBCASE("without ceilings, no percent and no floor") {
    PerformanceResult r = result_of(timed(0.001), timed(1.0));
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, std::nullopt);
    CHECK_FALSE(r.percent_of_ceiling.has_value());
    CHECK(r.flags.empty());
  }
  SUBCASE("below 0.9 × the roofline floor: impossible, earns nothing") {
    // 2.5e9 bytes at 2500 GB/s: a 1 ms floor.
    PerformanceResult r = result_of(timed(0.5), timed(1.2));
    assess_performance(r, Work{2.5e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(has_flag(r, "below_roofline_floor"));
    CHECK(r.points == 0.0);
    CHECK(r.message.find("0.5 ms is physically impossible: moving and computing this much takes "
                         "at least 1 ms on this GPU, so this target earns nothing") != std::string::npos);
  }
  SUBCASE("exactly at 0.9 × the floor is still possible") {
    PerformanceResult r = result_of(timed(0.9), timed(1.2));
    assess_performance(r, Work{2.5e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK_FALSE(has_flag(r, "below_roofline_floor"));
    CHECK(r.points == 1.0);
  }
  SUBCASE("wall-clock samples: timer_escaped") {
    PerformanceResult r = result_of(timed(2.0, 0.001, 3), timed(1.0));
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(r.flags == std::vector<std::string>{"timer_escaped"});
    CHECK(r.message.find("3 of 20 samples took the host wall clock's time") != std::string::npos);
  }
  SUBCASE("noisy above an rse of 2 %, for the student or the reference") {
    PerformanceResult quiet = result_of(timed(2.0, 0.02), timed(1.0, 0.02));
    assess_performance(quiet, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK_FALSE(has_flag(quiet, "noisy"));
    PerformanceResult noisy = result_of(timed(2.0, 0.001), timed(1.0, 0.031));
    assess_performance(noisy, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(noisy.flags == std::vector<std::string>{"noisy"});
    CHECK(noisy.message.ends_with("The timings were noisy (relative standard error 3.1 %): the "
                                  "ratio may differ between runs."));
  }
  SUBCASE("flags are not duplicated when assessed twice") {
    PerformanceResult r = result_of(timed(2.0, 0.05, 1), timed(1.0));
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(r.flags == std::vector<std::string>{"timer_escaped", "noisy"});
  }
  SUBCASE("no student timing: nothing to assess") {
    PerformanceResult r;
    assess_performance(r, Work{2e9, 0.0, 0.0, "GB/s"}, kCeilings);
    CHECK(r == PerformanceResult{});
  }
}
