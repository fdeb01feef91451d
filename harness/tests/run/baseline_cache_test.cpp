// BaselineCache (harness/src/run/baseline_cache.cpp): a baseline serves later checks for its
// lifetime, under its own key only.
#include "run/baseline_cache.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace cugrade;

TEST_CASE("run::BaselineCache") {
  SUBCASE("a stored baseline is found under its key, and only there") {
    BaselineCache cache(30.0);
    CHECK_FALSE(cache.find("gpu 0 / naive").has_value());
    cache.store("gpu 0 / naive", {1.0, 2.0});
    REQUIRE(cache.find("gpu 0 / naive").has_value());
    CHECK(*cache.find("gpu 0 / naive") == std::vector<double>{1.0, 2.0});
    CHECK_FALSE(cache.find("gpu 1 / naive").has_value());
  }
  SUBCASE("past its lifetime a baseline is taken again") {
    BaselineCache cache(0.01);
    cache.store("k", {1.0});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK_FALSE(cache.find("k").has_value());
    cache.store("k", {3.0});
    CHECK(*cache.find("k") == std::vector<double>{3.0});
  }
}
