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
  SUBCASE("when the typical gap passes 0.5 × event + 0.05 ms, every sample takes its wall time") {
    // Gaps 0.5, 0.56, 2, 2 for 1 ms events: median 1.28 beyond 0.55, so work escaped the events.
    const TimingStats s = timing_stats({1.0, 1.0, 1.0, 1.0}, {1.5, 1.56, 3.0, 3.0});
    CHECK(s.samples == 4);
    CHECK(s.wall_clock_samples == 4);
    CHECK(s.min_ms == 1.5);
    CHECK(s.max_ms == 3.0);
    CHECK(s.median_ms == doctest::Approx(2.28));
  }
  SUBCASE("a few samples the host delayed leave the event times standing") {
    // A busy machine: 3 of 10 round trips late by 0.4 to 5 ms. Their events are honest.
    const std::vector<double> events(10, 0.2);
    const TimingStats s =
        timing_stats(events, {0.21, 0.6, 0.22, 0.2, 5.2, 0.21, 0.23, 1.0, 0.2, 0.21});
    CHECK(s.wall_clock_samples == 0);
    CHECK(s.median_ms == doctest::Approx(0.2));
    CHECK(s.max_ms == doctest::Approx(0.2));
  }
  SUBCASE("work left outside the events on most calls is caught even when some calls are clean") {
    const TimingStats s = timing_stats({0.1, 0.1, 0.1, 0.1, 0.1}, {0.1, 0.1, 1.1, 1.1, 1.1});
    CHECK(s.wall_clock_samples == 3);
    CHECK(s.median_ms == doctest::Approx(1.1));
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

TEST_CASE("timing::graded_samples") {
  SUBCASE("the samples timing_stats reads, in order: here the wall times work escaped to") {
    std::size_t walls = 0;
    CHECK(graded_samples({0.1, 0.1, 0.1, 0.1, 0.1}, {0.1, 0.1, 1.1, 1.2, 1.3}, &walls) ==
          std::vector<double>{0.1, 0.1, 1.1, 1.2, 1.3});
    CHECK(walls == 3);
  }
  SUBCASE("the events where the wall clock agrees; a garbage event without a wall time is dropped") {
    CHECK(graded_samples({1.0, 2.0, 3.0}, {1.1, 2.1, 3.1}) == std::vector<double>{1.0, 2.0, 3.0});
    CHECK(graded_samples({-1.0, 2.0}, {}) == std::vector<double>{2.0});
  }
}
