// grading_settings (harness/src/batch/grading_settings.cpp): what a batch's grades depend on,
// kept in each record so that a restarted batch keeps only what it would grade the same way.
#include "batch/grading_settings.hpp"

#include <doctest/doctest.h>

#include "batch/record_samples.hpp"
#include "core/atomic_file.hpp"
#include "core/sha256.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::grading_settings") {
  const Spec spec = twice_spec();
  CheckOptions options;
  const GradingSettings plain = grading_settings(spec, options, true);
  CHECK(plain.assignment == "twice");
  CHECK(plain.spec_sha256 == sha256_hex(*read_whole_file(spec.where.file)));
  CHECK(plain.hidden == "none");
  CHECK(plain.backend == "cuda");
  CHECK(plain.performance);
  CHECK(plain.sanitizer);

  SUBCASE("the course secret: told apart by a fingerprint that holds nothing of it") {
    options.course_secret = CourseSecret("course-secret-123");
    const GradingSettings keyed = grading_settings(spec, options, true);
    CHECK(keyed.hidden.starts_with("keyed:"));
    CHECK(keyed.hidden.size() == 6 + 16);
    CHECK(keyed.hidden.find("course-secret") == std::string::npos);
    CHECK(grading_settings(spec, options, true) == keyed);  // the same secret, the same settings
    options.course_secret = CourseSecret("course-secret-124");
    CHECK(grading_settings(spec, options, true).hidden != keyed.hidden);
  }
  SUBCASE("on the CPU backend nothing is timed or sanitized, whatever was asked") {
    const GradingSettings cpu = grading_settings(spec, options, false);
    CHECK(cpu.backend == "cpu");
    CHECK_FALSE(cpu.performance);
    CHECK_FALSE(cpu.sanitizer);
    options.performance = false;
    CHECK_FALSE(grading_settings(spec, options, true).performance);
  }
  SUBCASE("JSON both ways; anything else is no settings") {
    CHECK(settings_from_json(settings_to_json(plain)) == plain);
    CHECK_FALSE(settings_from_json(nlohmann::json::object()).has_value());
    CHECK_FALSE(settings_from_json(nlohmann::json("cuda")).has_value());
    nlohmann::json wrong = settings_to_json(plain);
    wrong["performance"] = "yes";
    CHECK_FALSE(settings_from_json(wrong).has_value());
  }
  SUBCASE("what changed, in words; nothing when nothing did") {
    CHECK(settings_changed(plain, plain).empty());
    GradingSettings other = plain;
    other.hidden = "keyed:0123456789abcdef";
    CHECK(settings_changed(other, plain) == "the hidden cases (keyed by a course secret, now none)");
    CHECK(settings_changed(std::nullopt, plain) == "settings an earlier version of cugrade did not keep");
  }
}
