#include "batch/late_policy.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {
constexpr std::int64_t kDeadline = 1767225600;  // 2026-01-01T00:00:00Z
constexpr std::int64_t kDay = 86400;

LatePolicy course_policy() { return parse_late_policy("grace=15m,per-day=10%,max-days=3").value(); }
}  // namespace

TEST_CASE("batch::parse_late_policy") {
  SUBCASE("the three keys, in any order, spaces allowed") {
    const LatePolicy p = course_policy();
    CHECK(p.grace_seconds == 900);
    CHECK(p.percent_per_day == 10.0);
    CHECK(p.max_days == 3);
    CHECK(parse_late_policy(" max-days=3 , per-day=10% ,grace=15m").value() == p);
  }
  SUBCASE("units and defaults") {
    CHECK(parse_late_policy("grace=30s").value().grace_seconds == 30);
    CHECK(parse_late_policy("grace=2h").value().grace_seconds == 7200);
    CHECK(parse_late_policy("grace=1d").value().grace_seconds == kDay);
    CHECK(parse_late_policy("grace=0").value().grace_seconds == 0);
    const LatePolicy only_percent = parse_late_policy("per-day=12.5%").value();
    CHECK(only_percent.grace_seconds == 0);
    CHECK(only_percent.percent_per_day == 12.5);
    CHECK_FALSE(only_percent.max_days.has_value());
    CHECK(parse_late_policy("max-days=0").value().max_days == 0);
  }
  SUBCASE("malformed: an error that says what to write") {
    CHECK(parse_late_policy("").error().message.find("--late-policy is empty: expected keys grace, per-day and max-days") == 0);
    CHECK(parse_late_policy("grace=15").error().message.find("grace=15: give a whole number and its unit: 15m") != std::string::npos);
    CHECK(parse_late_policy("grace=15 minutes").error().message.find("give a whole number and its unit") != std::string::npos);
    CHECK(parse_late_policy("grace=-5m").error().message.find("give a whole number and its unit") != std::string::npos);
    CHECK(parse_late_policy("per-day=10").error().message ==
          "--late-policy: per-day=10: write the percent sign, e.g. per-day=10% (10 % of the raw score per started day)");
    CHECK(parse_late_policy("per-day=150%").error().message.find("a percent from 0% to 100%") != std::string::npos);
    CHECK(parse_late_policy("per-day=abc%").error().message.find("a percent from 0% to 100%") != std::string::npos);
    CHECK(parse_late_policy("max-days=two").error().message.find("max-days=two: a whole number of days") != std::string::npos);
    CHECK(parse_late_policy("perday=10%").error().message.find("unknown key 'perday'; did you mean 'per-day'?") !=
          std::string::npos);
    CHECK(parse_late_policy("grace=1m,grace=2m").error().message == "--late-policy: grace is given twice");
    CHECK(parse_late_policy("grace=1m,,per-day=1%").error().message.find("an empty item between commas") != std::string::npos);
    CHECK(parse_late_policy("grace").error().message.find("'grace' has no value") != std::string::npos);
    CHECK(parse_late_policy("grace=400d").error().message.find("longer than a year") != std::string::npos);
  }
}

TEST_CASE("batch::describe_late_policy") {
  CHECK(describe_late_policy(course_policy()) == "15 min grace, then 10 % per started day, not accepted after 3 days");
  CHECK(describe_late_policy(parse_late_policy("per-day=5%").value()) == "5 % per started day");
  CHECK(describe_late_policy(parse_late_policy("grace=1h,max-days=0").value()) ==
        "1 h grace, then 0 % per started day, not accepted after the grace");
}

TEST_CASE("batch::assess_lateness") {
  const LatePolicy p = course_policy();
  const auto at = [&](std::int64_t seconds_after) { return assess_lateness(p, kDeadline, kDeadline + seconds_after); };
  SUBCASE("before and exactly at the deadline: on time") {
    CHECK(at(-3600).standing == LateStanding::on_time);
    CHECK(at(0).standing == LateStanding::on_time);
    CHECK(at(0).penalty_percent == 0.0);
  }
  SUBCASE("within the grace, up to and exactly at its end: no penalty") {
    CHECK(at(1).standing == LateStanding::in_grace);
    CHECK(at(900) == LateAssessment{LateStanding::in_grace, 900, 0, 0.0});
  }
  SUBCASE("one second after the grace: the first started day") {
    CHECK(at(901) == LateAssessment{LateStanding::late, 901, 1, 10.0});
  }
  SUBCASE("a day is 24 hours from the end of the grace") {
    CHECK(at(900 + kDay).days_late == 1);
    CHECK(at(900 + kDay + 1).days_late == 2);
    CHECK(at(900 + kDay + 1).penalty_percent == 20.0);
  }
  SUBCASE("max-days: the last accepted second, and the one after") {
    CHECK(at(900 + 3 * kDay) == LateAssessment{LateStanding::late, 900 + 3 * kDay, 3, 30.0});
    CHECK(at(900 + 3 * kDay + 1) == LateAssessment{LateStanding::too_late, 900 + 3 * kDay + 1, 4, 100.0});
  }
  SUBCASE("no max-days: accepted however late, the penalty stopping at 100 %") {
    const LatePolicy open = parse_late_policy("per-day=30%").value();
    CHECK(assess_lateness(open, kDeadline, kDeadline + 1) == LateAssessment{LateStanding::late, 1, 1, 30.0});
    CHECK(assess_lateness(open, kDeadline, kDeadline + 10 * kDay).penalty_percent == 100.0);
    CHECK(assess_lateness(open, kDeadline, kDeadline + 10 * kDay).standing == LateStanding::late);
  }
  SUBCASE("max-days=0: nothing accepted after the grace") {
    const LatePolicy strict = parse_late_policy("grace=10m,max-days=0").value();
    CHECK(assess_lateness(strict, kDeadline, kDeadline + 600).standing == LateStanding::in_grace);
    CHECK(assess_lateness(strict, kDeadline, kDeadline + 601).standing == LateStanding::too_late);
  }
  SUBCASE("an unknown time is never late") {
    CHECK(assess_lateness(p, kDeadline, std::nullopt) == LateAssessment{LateStanding::time_unknown, 0, 0, 0.0});
  }
}

TEST_CASE("batch::late_penalty_points") {
  const LateAssessment one_day{LateStanding::late, 1000, 1, 10.0};
  CHECK(late_penalty_points(one_day, 8.0) == doctest::Approx(0.8));
  CHECK(late_penalty_points(one_day, 7.333) == doctest::Approx(0.73));  // in hundredths, as shown
  CHECK(late_penalty_points(one_day, 0.0) == 0.0);
  CHECK(late_penalty_points({LateStanding::late, 1000, 12, 100.0}, 6.5) == doctest::Approx(6.5));
  CHECK(late_penalty_points({LateStanding::too_late, 1000, 4, 100.0}, 7.0) == doctest::Approx(7.0));
  CHECK(late_penalty_points({LateStanding::in_grace, 100, 0, 0.0}, 7.0) == 0.0);
  CHECK(late_penalty_points({LateStanding::time_unknown, 0, 0, 0.0}, 7.0) == 0.0);
}

TEST_CASE("batch::to_string (LateStanding)") {
  CHECK(to_string(LateStanding::on_time) == "on_time");
  CHECK(to_string(LateStanding::in_grace) == "in_grace");
  CHECK(to_string(LateStanding::late) == "late");
  CHECK(to_string(LateStanding::too_late) == "too_late");
  CHECK(to_string(LateStanding::time_unknown) == "time_unknown");
}
