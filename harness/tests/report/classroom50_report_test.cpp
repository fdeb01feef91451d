#include "report/classroom50_report.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include "report/sample_report.hpp"

namespace cugrade {
namespace {

Classroom50Identity identity() {
  return Classroom50Identity{.classroom = "gpu-course", .assignment = "matmul", .assignment_type = "individual",
                             .owner = "alice", .submission = "submit/2026-12-01T10-00-00Z-a1b2c3d",
                             .commit = "https://example.org/commit/a1b2c3d",
                             .release = "https://example.org/releases/tag/submit%2F2026-12-01T10-00-00Z-a1b2c3d",
                             .review = "https://example.org/commit/a1b2c3d"};
}

const nlohmann::json* test_named(const nlohmann::json& result, const std::string& name) {
  for (const nlohmann::json& t : result["tests"])
    if (t["test-name"] == name) return &t;
  return nullptr;
}

TEST_CASE("report::report_to_classroom50") {
  SUBCASE("the identity as the runner gave it, the schema's name, the report's start as both times") {
    const nlohmann::json r = report_to_classroom50(test::sample_report(), identity());
    CHECK(r["schema"] == "classroom50/result/v1");
    CHECK(r["owner"] == "alice");
    CHECK(r["assignment_type"] == "individual");
    CHECK(r["submission"] == "submit/2026-12-01T10-00-00Z-a1b2c3d");
    CHECK(r["datetime"] == test::sample_report().started_at);
    CHECK(r["graded_at"] == r["datetime"]);
    CHECK_FALSE(r.contains("submitted_by"));
  }
  SUBCASE("whole points per test, the exact ones beside them; totals are the tests' sums") {
    const nlohmann::json r = report_to_classroom50(test::sample_report(), identity());
    const nlohmann::json* tiled = test_named(r, "performance: tiled at K=4096,M=4096,N=4096");
    REQUIRE(tiled != nullptr);
    CHECK((*tiled)["score"] == 5);  // 4.78 of 5
    CHECK((*tiled)["points"] == 4.78);
    CHECK((*tiled)["passed"] == false);
    long long score = 0, max_score = 0;
    for (const nlohmann::json& t : r["tests"]) {
      CHECK(t["score"].get<long long>() <= t["max-score"].get<long long>());
      score += t["score"].get<long long>();
      max_score += t["max-score"].get<long long>();
    }
    CHECK(r["score"] == score);
    CHECK(r["max-score"] == max_score);
    CHECK(r["tests"][0]["test-name"] == "build");
  }
  SUBCASE("a hidden case is counted, never described") {
    const nlohmann::json r = report_to_classroom50(test::sample_report(), identity());
    const std::string text = r.dump();
    CHECK(text.find("hidden case") != std::string::npos);
    CHECK(text.find("hidden/tiled/2") == std::string::npos);
    CHECK(text.find(std::to_string(0xd1b54a32d192ed03ULL)) == std::string::npos);
  }
  SUBCASE("a compile error loses every test's points, the maximum stays the assignment's") {
    const nlohmann::json r = report_to_classroom50(test::compile_error_report(), identity());
    CHECK(r["score"] == 0);
    CHECK(r["max-score"].get<long long>() > 0);
    CHECK(r["tests"][0]["passed"] == false);
    CHECK(r["tests"][0]["output"].get<std::string>().find("identifier \"tile\" is undefined") != std::string::npos);
  }
  SUBCASE("performance not timed (the CPU backend) is no test at all") {
    const nlohmann::json r = report_to_classroom50(test::empty_template_report(), identity());
    for (const nlohmann::json& t : r["tests"])
      CHECK(t["test-name"].get<std::string>().find("performance") == std::string::npos);
  }
}

TEST_CASE("report::classroom50_identity_from_environment") {
  const char* names[] = {"CLASSROOM", "ASSIGNMENT", "ASSIGNMENT_TYPE", "OWNER", "USERNAME", "SUBMISSION_TAG",
                         "COMMIT_URL", "RELEASE_URL", "REVIEW_URL", "GITHUB_ACTOR", "GITHUB_ACTOR_ID"};
  for (const char* name : names) unsetenv(name);
  SUBCASE("outside Classroom 50's runner: what is missing, by name") {
    const auto id = classroom50_identity_from_environment();
    REQUIRE_FALSE(id.has_value());
    CHECK(id.error().message.find("CLASSROOM, ASSIGNMENT, OWNER (or USERNAME), SUBMISSION_TAG, COMMIT_URL, "
                                  "RELEASE_URL not set") != std::string::npos);
  }
  SUBCASE("inside it: the runner's variables, with its defaults") {
    setenv("CLASSROOM", "gpu-course", 1);
    setenv("ASSIGNMENT", "matmul", 1);
    setenv("USERNAME", "alice", 1);
    setenv("SUBMISSION_TAG", "submit/x", 1);
    setenv("COMMIT_URL", "c", 1);
    setenv("RELEASE_URL", "r", 1);
    setenv("GITHUB_ACTOR", "bob", 1);
    setenv("GITHUB_ACTOR_ID", "42", 1);
    const auto id = classroom50_identity_from_environment();
    REQUIRE(id.has_value());
    CHECK(id->owner == "alice");
    CHECK(id->assignment_type == "individual");
    CHECK(id->review == "c");
    CHECK(id->submitted_by == "bob");
    CHECK(id->submitted_by_id == 42);
    setenv("ASSIGNMENT_TYPE", "group", 1);
    CHECK(classroom50_identity_from_environment()->assignment_type == "group");
    setenv("SUBMISSION_TAG", "v1.0", 1);
    const auto wrong = classroom50_identity_from_environment();
    REQUIRE_FALSE(wrong.has_value());
    CHECK(wrong.error().message.find("SUBMISSION_TAG 'v1.0' is not a submit/... tag") != std::string::npos);
  }
  for (const char* name : names) unsetenv(name);
}

}  // namespace
}  // namespace cugrade
