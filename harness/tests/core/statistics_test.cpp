// summarize() and the stopping rule of the timing loop (harness/runtime/statistics.hpp).
#include "statistics.hpp"

#include <doctest/doctest.h>

#include <cmath>

using cugrade::StoppingRule;

TEST_CASE("runtime::summarize") {
  SUBCASE("1..10 in any order") {
    const auto s = cugrade::summarize({10, 2, 3, 4, 5, 6, 7, 8, 9, 1});
    CHECK(s.count == 10);
    CHECK(s.median == 5.5);
    CHECK(s.q1 == 3.25);
    CHECK(s.q3 == 7.75);
    CHECK(s.min == 1.0);
    CHECK(s.max == 10.0);
    CHECK(s.mean == 5.5);
    // sd of 1..10 is sqrt(55/6); rse = sd / sqrt(10) / 5.5
    CHECK(s.rse == doctest::Approx(std::sqrt(55.0 / 6.0) / std::sqrt(10.0) / 5.5));
  }
  SUBCASE("equal samples have no spread") {
    const auto s = cugrade::summarize({2, 2, 2});
    CHECK(s.rse == 0.0);
    CHECK(s.q3 - s.q1 == 0.0);
  }
  SUBCASE("no samples: all zero") {
    const auto s = cugrade::summarize({});
    CHECK(s.count == 0);
    CHECK(s.median == 0.0);
  }
}

TEST_CASE("runtime::should_stop") {
  const StoppingRule rule{10, 50, 0.005, 2.0};
  const std::vector<double> steady(10, 1.0);
  SUBCASE("never before the minimum, even when steady or out of time") {
    CHECK_FALSE(cugrade::should_stop({1.0, 1.0, 1.0}, rule, 100.0));
  }
  SUBCASE("steady samples stop at the minimum") {
    CHECK(cugrade::should_stop(steady, rule, 0.1));
  }
  SUBCASE("noisy samples go on until the budget or the maximum") {
    std::vector<double> noisy;
    for (int i = 0; i < 10; ++i) noisy.push_back(i % 2 ? 1.0 : 2.0);
    CHECK_FALSE(cugrade::should_stop(noisy, rule, 0.1));
    CHECK(cugrade::should_stop(noisy, rule, 2.0));
    noisy.resize(50, 1.5);
    CHECK(cugrade::should_stop(noisy, rule, 0.1));
  }
}
