// `--late-policy` and `--extensions` are read and checked against the class before anything is graded.
#include "cli/late_options.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.hpp"

using namespace cugrade;

namespace {
constexpr std::int64_t kDeadline = 1767225600;  // 2026-01-01T00:00:00Z
}  // namespace

TEST_CASE("cli::late_plan_of") {
  test::TempDir dir("late-options");
  std::filesystem::create_directories(dir.path / "class" / "alice");
  std::filesystem::create_directories(dir.path / "class" / "bob");
  GradeArgs args;
  args.submissions = (dir.path / "class").string();
  args.out = (dir.path / "out").string();
  SUBCASE("neither option: no plan") { CHECK_FALSE(late_plan_of(args, kDeadline).value().has_value()); }
  SUBCASE("a policy: parsed, from the class's deadline") {
    args.late_policy = "grace=15m,per-day=10%";
    const auto plan = late_plan_of(args, kDeadline).value();
    REQUIRE(plan);
    CHECK(plan->deadline_unix == kDeadline);
    CHECK(plan->policy->grace_seconds == 900);
    CHECK(plan->extensions.deadlines.empty());
  }
  SUBCASE("either without --deadline is an error that says so") {
    args.late_policy = "per-day=10%";
    CHECK(late_plan_of(args, std::nullopt).error().message.find("--late-policy counts from the class's deadline: "
                                                                "give --deadline too") == 0);
    args.late_policy.clear();
    args.extensions = (dir.path / "ext.csv").string();
    CHECK(late_plan_of(args, std::nullopt).error().message.find("--extensions counts from") == 0);
  }
  SUBCASE("extensions: read, and every student in them has a submission") {
    std::ofstream(dir.path / "ext.csv") << "student,deadline\nalice,2026-01-03T00:00:00Z\n";
    args.extensions = (dir.path / "ext.csv").string();
    const auto plan = late_plan_of(args, kDeadline).value();
    REQUIRE(plan);
    CHECK_FALSE(plan->policy);
    CHECK(plan->deadline_of("alice") == kDeadline + 2 * 86400);
    CHECK(plan->deadline_of("bob") == kDeadline);
    std::ofstream(dir.path / "ext.csv") << "student,deadline\nalcie,2026-01-03T00:00:00Z\n";
    CHECK(late_plan_of(args, kDeadline).error().message.find("'alcie'; did you mean 'alice'?") != std::string::npos);
  }
  SUBCASE("a malformed policy") {
    args.late_policy = "per-day=10";
    CHECK(late_plan_of(args, kDeadline).error().message.find("write the percent sign") != std::string::npos);
  }
}

TEST_CASE("cli::late_words") {
  GradeArgs args;
  CHECK(late_words(args).empty());
  args.late_policy = "per-day=10%";
  args.extensions = "/course/ext.csv";
  CHECK(late_words(args) == std::vector<std::string>{"--late-policy", "per-day=10%", "--extensions", "/course/ext.csv"});
}
