// --fail-under: what a CI job may write as its bar, and the line that explains an exit code 4.
#include "cli/fail_under.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("cli::parse_fail_under") {
  SUBCASE("points and percentages") {
    const auto points = parse_fail_under("15");
    REQUIRE(points.has_value());
    CHECK(points->value == 15.0);
    CHECK_FALSE(points->percent);
    CHECK(bar_points(*points, 60.0) == 15.0);
    const auto percent = parse_fail_under("75%");
    REQUIRE(percent.has_value());
    CHECK(percent->percent);
    CHECK(bar_points(*percent, 60.0) == doctest::Approx(45.0));
    CHECK(parse_fail_under("12.5").has_value());
    CHECK(parse_fail_under("0").has_value());
    CHECK(parse_fail_under("100%").has_value());
  }
  SUBCASE("anything else is refused before grading, saying what the bar takes") {
    for (const char* text : {"", "%", "abc", "80 %", " 80", "80%%", "1e999", "nan", "inf", "0x10", "15 points"}) {
      CAPTURE(text);
      const auto bar = parse_fail_under(text);
      REQUIRE_FALSE(bar.has_value());
      CHECK(bar.error().message.starts_with("--fail-under takes points (15) or a percentage from 0 to 100 (75%)"));
    }
    CHECK(parse_fail_under("-5").error().message.ends_with("not '-5': a bar below 0 is always met"));
    CHECK(parse_fail_under("150%").error().message.ends_with("not '150%': no submission has more than 100%"));
  }
}

TEST_CASE("cli::below_bar_message") {
  const FailUnder eighty = *parse_fail_under("80%");
  CHECK(below_bar_message(eighty, 48.0, 60.0, true, Outcome::passed).empty());
  CHECK(below_bar_message(eighty, 30.0, 60.0, true, Outcome::wrong_answer) ==
        "below the bar: 30 of 60 points; --fail-under 80% asks for 48");
  CHECK(below_bar_message(eighty, 0.0, 60.0, false, Outcome::compile_error) ==
        "below the bar: the submission is not gradable (compile_error), so --fail-under 80% is not met");
  // A bar in points that this run cannot give (no performance points without a GPU) says so.
  CHECK(below_bar_message(*parse_fail_under("50"), 40.0, 40.0, true, Outcome::passed) ==
        "below the bar: 40 of 40 points; --fail-under 50 asks for 50, more than this run's maximum of 40 (are the "
        "performance points graded in this run?)");
}
