#include "bench/gold_timer.hpp"

#include <doctest/doctest.h>

#include <thread>

using namespace cugrade;

TEST_CASE("bench::time_gold_ms") {
  int calls = 0;
  const Case c{"bench/1/x", "x", {{"n", 1}}, 1, 0.0, Visibility::visible};
  SUBCASE("a fast gold is called until the budget or the call limit, and its median returned") {
    const Grader fast{"t", {}, [&](const Case&, const ArraySet&) {
                        ++calls;
                        std::this_thread::sleep_for(std::chrono::milliseconds(2));
                        return ArraySet{};
                      },
                      {}};
    const double ms = time_gold_ms(fast, c, {}, GoldTiming{.budget_s = 10.0, .max_calls = 5});
    CHECK(calls == 5);
    CHECK(ms >= 2.0);
    CHECK(ms < 50.0);
  }
  SUBCASE("a slow gold is called once") {
    const Grader slow{"t", {}, [&](const Case&, const ArraySet&) {
                        ++calls;
                        std::this_thread::sleep_for(std::chrono::milliseconds(30));
                        return ArraySet{};
                      },
                      {}};
    const double ms = time_gold_ms(slow, c, {}, GoldTiming{.budget_s = 0.01, .max_calls = 9});
    CHECK(calls == 1);
    CHECK(ms >= 30.0);
  }
}
