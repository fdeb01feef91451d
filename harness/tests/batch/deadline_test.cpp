#include "batch/deadline.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <time.h>

using namespace cugrade;

TEST_CASE("batch::parse_deadline") {
  SUBCASE("UTC and offsets") {
    CHECK(parse_deadline("2026-01-01T00:00:00Z").value() == 1767225600);
    CHECK(parse_deadline("2026-01-01T01:30:00+01:30").value() == 1767225600);
    CHECK(parse_deadline("2025-12-31T19:00-0500").value() == 1767225600);
  }
  SUBCASE("local time, with or without seconds; a date alone is the end of that day") {
    const char* saved = std::getenv("TZ");
    const std::string before = saved ? saved : "";
    setenv("TZ", "UTC", 1);
    tzset();
    CHECK(parse_deadline("2026-01-01T00:00").value() == 1767225600);
    CHECK(parse_deadline("2026-01-01 00:00:30").value() == 1767225630);
    CHECK(parse_deadline("2025-12-31").value() == 1767225599);
    if (saved) setenv("TZ", before.c_str(), 1);
    else unsetenv("TZ");
    tzset();
  }
  SUBCASE("anything else says what is expected") {
    CHECK(parse_deadline("tomorrow").error().message ==
          "--deadline 'tomorrow': expected a date and time such as 2026-03-01T23:59, 2026-03-01 23:59:30, "
          "2026-03-01T23:59:00Z, 2026-03-01T23:59:00+01:00, or a date alone (the end of that day)");
    CHECK(parse_deadline("2026-02-30T10:00Z").error().message == "--deadline '2026-02-30T10:00Z': no such date");
    CHECK(parse_deadline("2026-13-01").error().message == "--deadline '2026-13-01': not a valid date and time");
  }
}

TEST_CASE("batch::parse_timestamp") {
  SUBCASE("git's %cI and Gradescope's created_at, a fraction dropped, a line break around it") {
    CHECK(parse_timestamp("2026-01-01T01:00:00+01:00\n").value() == 1767225600);
    CHECK(parse_timestamp("2025-12-31T16:00:00.927183-08:00").value() == 1767225600);
    CHECK(parse_timestamp("2026-01-01T00:00:00Z").value() == 1767225600);
  }
  SUBCASE("a time without its zone, or not a time, is an error") {
    CHECK_FALSE(parse_timestamp("2026-01-01T00:00:00").has_value());
    CHECK_FALSE(parse_timestamp("fatal: not a git repository").has_value());
    CHECK_FALSE(parse_timestamp("").has_value());
  }
}
