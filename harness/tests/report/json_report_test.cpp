#include "report/json_report.hpp"

#include <cmath>

#include <doctest/doctest.h>

#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::report_to_json") {
  const GradeReport report = test::sample_report();

  SUBCASE("the top level carries the record's parts") {
    const nlohmann::json json = report_to_json(report);
    for (const char* key : {"score", "max_score", "outcome", "gradable", "assignment", "seed",
                            "environment", "build", "cases", "performance", "notes",
                            "cugrade_version", "submission", "started_at"})
      CHECK_MESSAGE(json.contains(key), key);
    CHECK(json["outcome"] == "wrong_answer");
    CHECK(json["seed"] == 20250314);
    CHECK(json["environment"]["gpu"] == "NVIDIA H100 80GB HBM3");
    CHECK(json["environment"]["compute_capability"] == "9.0");
    CHECK(json["cases"][1]["comparisons"][0]["first"][0]["coords"] ==
          nlohmann::json::array({64, 0}));
  }
  SUBCASE("hidden cases keep their id and outcome but not their inputs or values") {
    const nlohmann::json hidden = report_to_json(report)["cases"][5];
    CHECK(hidden["id"] == "hidden/tiled/2");
    CHECK(hidden["visibility"] == "hidden");
    CHECK(hidden["outcome"] == "wrong_answer");
    CHECK(hidden["max_points"] == 2.0);
    CHECK_FALSE(hidden.contains("params"));
    CHECK_FALSE(hidden.contains("seed"));
    CHECK_FALSE(hidden.contains("message"));
    CHECK(hidden["comparisons"][0] ==
          nlohmann::json({{"array", "C"}, {"wrong", 312}, {"nonfinite", 0}}));
  }
  SUBCASE("a TA's report keeps the hidden details") {
    const nlohmann::json hidden = report_to_json(report, true)["cases"][5];
    CHECK(hidden["params"] == nlohmann::json({{"K", 47}, {"M", 65}, {"N", 33}}));
    CHECK(hidden["seed"] == 0xd1b54a32d192ed03);
    CHECK(hidden["comparisons"][0]["first"].size() == 5);
  }
  SUBCASE("non-finite numbers are written as strings") {
    GradeReport copy = report;
    copy.cases[2].comparisons[1].first[1].actual = std::nan("");
    copy.cases[2].comparisons[1].first[0].expected = -HUGE_VAL;
    const nlohmann::json first = report_to_json(copy)["cases"][2]["comparisons"][1]["first"];
    CHECK(first[0]["actual"] == "Infinity");
    CHECK(first[0]["expected"] == "-Infinity");
    CHECK(first[1]["actual"] == "NaN");
  }
}

TEST_CASE("report::report_from_json") {
  const GradeReport report = test::sample_report();

  SUBCASE("a TA's report reads back to the same report") {
    const auto back = report_from_json(report_to_json(report, true));
    REQUIRE(back.has_value());
    CHECK(*back == report);
  }
  SUBCASE("and so does it through its text") {
    const std::string text = report_to_json(report, true).dump(2);
    const auto back = report_from_json(nlohmann::json::parse(text));
    REQUIRE(back.has_value());
    CHECK(*back == report);
  }
  SUBCASE("a failed build reads back to the same report") {
    const GradeReport failed = test::compile_error_report();
    const auto back = report_from_json(report_to_json(failed));
    REQUIRE(back.has_value());
    CHECK(*back == failed);
  }
  SUBCASE("NaN reads back as NaN") {
    GradeReport copy = report;
    copy.cases[2].comparisons[1].first[1].actual = std::nan("");
    const auto back = report_from_json(report_to_json(copy));
    REQUIRE(back.has_value());
    CHECK(std::isnan(back->cases[2].comparisons[1].first[1].actual));
  }
  SUBCASE("a student's report reads back with the hidden details empty") {
    const auto back = report_from_json(report_to_json(report));
    REQUIRE(back.has_value());
    const CaseResult& hidden = back->cases[5];
    CHECK(hidden.id == "hidden/tiled/2");
    CHECK(hidden.outcome == Outcome::wrong_answer);
    CHECK(hidden.params.empty());
    CHECK(hidden.seed == 0);
    CHECK(hidden.comparisons[0].wrong == 312);
    CHECK(hidden.comparisons[0].first.empty());
    CHECK(back->cases[1] == report.cases[1]);  // visible cases are whole
  }
}

TEST_CASE("report::report_from_json errors") {
  const nlohmann::json good = report_to_json(test::sample_report(), true);
  const auto error_of = [](const nlohmann::json& json) {
    const auto result = report_from_json(json);
    REQUIRE_FALSE(result.has_value());
    return result.error().message;
  };

  SUBCASE("not an object") {
    CHECK(error_of(nlohmann::json::array()) == "a grade report must be a JSON object, found array");
  }
  SUBCASE("a missing key") {
    nlohmann::json json = good;
    json.erase("assignment");
    CHECK(error_of(json) == "invalid grade report: assignment: missing");
  }
  SUBCASE("a missing key in a visible case") {
    nlohmann::json json = good;
    json["cases"][0].erase("params");
    CHECK(error_of(json) == "invalid grade report: cases[0].params: missing");
  }
  SUBCASE("an unknown outcome") {
    nlohmann::json json = good;
    json["cases"][1]["outcome"] = "wrong";
    CHECK(error_of(json) == "invalid grade report: cases[1].outcome: unknown outcome 'wrong'");
  }
  SUBCASE("a value of the wrong kind") {
    nlohmann::json json = good;
    json["performance"][0]["student"]["median_ms"] = "fast";
    CHECK(error_of(json) ==
          "invalid grade report: performance[0].student.median_ms: expected a number, found string");
  }
  SUBCASE("a negative seed") {
    nlohmann::json json = good;
    json["seed"] = -1;
    CHECK(error_of(json) == "invalid grade report: seed: expected a non-negative integer, found -1");
  }
  SUBCASE("the first problem is the one reported") {
    nlohmann::json json = good;
    json["build"]["outcome"] = 3;
    json["notes"] = "none";
    CHECK(error_of(json) ==
          "invalid grade report: build.outcome: expected a string, found number");
  }
}

}  // namespace cugrade
