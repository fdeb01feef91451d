#include <doctest/doctest.h>

#include "check/coords.hpp"

using namespace cugrade;

TEST_CASE("check::unravel_index") {
  SUBCASE("row-major matrix") {
    CHECK(unravel_index(7, {3, 4}) == std::vector<std::int64_t>{1, 3});
  }
  SUBCASE("vector, 3-D, scalar") {
    CHECK(unravel_index(7, {10}) == std::vector<std::int64_t>{7});
    CHECK(unravel_index(13, {2, 3, 4}) == std::vector<std::int64_t>{1, 0, 1});
    CHECK(unravel_index(0, {}).empty());
  }
}

TEST_CASE("check::describe_position") {
  CHECK(describe_position({5, 9}) == "(row 5, col 9)");
  CHECK(describe_position({17}) == "index 17");
  CHECK(describe_position({1, 0, 1}) == "(1, 0, 1)");
  CHECK(describe_position({}) == "the value");
}

TEST_CASE("check::format_magnitude") {
  CHECK(format_magnitude(0.25) == "0.25");
  CHECK(format_magnitude(3.1e-3) == "3.1e-3");
  CHECK(format_magnitude(1.23456e6) == "1.2e+6");
  CHECK(format_magnitude(0.0) == "0");
}
