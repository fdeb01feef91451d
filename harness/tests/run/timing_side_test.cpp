// A timing side's replies read as numbers (harness/src/run/timing_side.cpp): a runner's reply
// counts only when it is the expected word and exactly the expected numbers, since the student's
// process writes it.
#include "run/timing_side.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("run::reply_numbers") {
  SUBCASE("the word and its numbers") {
    const auto ran = reply_numbers("ran 0.125", "ran", 1);
    REQUIRE(ran.has_value());
    CHECK(*ran == std::vector<double>{0.125});
    const auto digest = reply_numbers("digest 1 -2.5 3e2", "digest", 3);
    REQUIRE(digest.has_value());
    CHECK(*digest == std::vector<double>{1.0, -2.5, 300.0});
  }
  SUBCASE("anything else is no reply: another word, too few or too many numbers, a word among them") {
    CHECK_FALSE(reply_numbers("ready", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran 1 2", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran 1x", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ran nothing", "ran", 1).has_value());
    CHECK_FALSE(reply_numbers("ranx 1", "ran", 1).has_value());
  }
}
