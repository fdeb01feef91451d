#include <doctest/doctest.h>

#include <limits>

#include "timing/timing_stats.hpp"

using namespace cugrade;

TEST_CASE("timing::timing_stats") {
  SUBCASE("event times when the wall clock agrees") {
    const TimingStats s = timing_stats({1.0, 2.0, 3.0, 4.0, 5.0}, {1.1, 2.1, 3.1, 4.1, 5.1});
    CHECK(s.samples == 5);
    CHECK(s.wall_clock_samples == 0);
    CHECK(s.median_ms == 3.0);
    CHECK(s.min_ms == 1.0);
    CHECK(s.max_ms == 5.0);
    CHECK(s.q1_ms == 2.0);
    CHECK(s.q3_ms == 4.0);
    CHECK(s.rse > 0.0);
  }
  SUBCASE("wall time replaces the event time past 1.5 × event + 0.05 ms, and is counted") {
    // Threshold for a 1 ms event: 1.55 ms. 1.5 stays an event sample; 1.56 and 3.0 escaped.
    const TimingStats s = timing_stats({1.0, 1.0, 1.0, 1.0}, {1.5, 1.56, 3.0, 3.0});
    CHECK(s.samples == 4);
    CHECK(s.wall_clock_samples == 3);
    CHECK(s.min_ms == 1.0);
    CHECK(s.max_ms == 3.0);
    CHECK(s.median_ms == doctest::Approx(2.28));
  }
  SUBCASE("no wall clock (CPU backend, or fewer wall samples): event times") {
    CHECK(timing_stats({2.0, 4.0}, {}).median_ms == 3.0);
    const TimingStats s = timing_stats({1.0, 1.0, 1.0}, {5.0});
    CHECK(s.wall_clock_samples == 1);
    CHECK(s.median_ms == 1.0);
  }
  SUBCASE("a garbage event time: the wall time stands, or the sample is dropped") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const TimingStats s = timing_stats({nan, -1.0, 2.0}, {4.0});
    CHECK(s.samples == 2);
    CHECK(s.wall_clock_samples == 1);
    CHECK(s.median_ms == 3.0);
  }
  SUBCASE("no samples: all zero") {
    CHECK(timing_stats({}, {}) == TimingStats{});
  }
}
