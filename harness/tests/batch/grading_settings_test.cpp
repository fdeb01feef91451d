// grading_settings (harness/src/batch/grading_settings.cpp): what a batch's grades depend on,
// kept in each record so that a restarted batch keeps only what it would grade the same way.
#include "batch/grading_settings.hpp"

#include <doctest/doctest.h>

#include "batch/record_samples.hpp"
#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "core/sha256.hpp"
#include "temp_dir.hpp"

#include <fmt/format.h>

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::grading_settings") {
  const Spec spec = twice_spec();
  CheckOptions options;
  Locations here;
  here.runner_dir = "/nonexistent/runners";
  here.cpu_runner_dir = "/nonexistent/cpu-runners";
  const GradingSettings plain = grading_settings(spec, options, true, here);
  CHECK(plain.assignment == "twice");
  CHECK(plain.spec_sha256 == sha256_hex(*read_whole_file(spec.where.file)));
  CHECK(plain.hidden == "none");
  CHECK(plain.backend == "cuda");
  CHECK(plain.performance);
  CHECK(plain.sanitizer);
  CHECK(plain.cugrade == cugrade_build(here, "twice", true));

  SUBCASE("the course secret: told apart by a fingerprint that holds nothing of it") {
    options.course_secret = CourseSecret("course-secret-123");
    const GradingSettings keyed = grading_settings(spec, options, true, here);
    CHECK(keyed.hidden.starts_with("keyed:"));
    CHECK(keyed.hidden.size() == 6 + 16);
    CHECK(keyed.hidden.find("course-secret") == std::string::npos);
    CHECK(grading_settings(spec, options, true, here) == keyed);  // the same secret, the same settings
    options.course_secret = CourseSecret("course-secret-124");
    CHECK(grading_settings(spec, options, true, here).hidden != keyed.hidden);
  }
  SUBCASE("on the CPU backend nothing is timed or sanitized, whatever was asked") {
    const GradingSettings cpu = grading_settings(spec, options, false, here);
    CHECK(cpu.backend == "cpu");
    CHECK_FALSE(cpu.performance);
    CHECK_FALSE(cpu.sanitizer);
    options.performance = false;
    CHECK_FALSE(grading_settings(spec, options, true, here).performance);
  }
  SUBCASE("JSON both ways; anything else is no settings") {
    CHECK(settings_from_json(settings_to_json(plain)) == plain);
    nlohmann::json unrecorded = settings_to_json(plain);  // an earlier cugrade's: no build kept
    unrecorded.erase("cugrade");
    CHECK(settings_from_json(unrecorded)->cugrade.empty());
    CHECK_FALSE(settings_from_json(nlohmann::json::object()).has_value());
    CHECK_FALSE(settings_from_json(nlohmann::json("cuda")).has_value());
    nlohmann::json wrong = settings_to_json(plain);
    wrong["performance"] = "yes";
    CHECK_FALSE(settings_from_json(wrong).has_value());
  }
  SUBCASE("the build of cugrade: its version and a fingerprint of its program and the assignment's runners") {
    test::TempDir dir("cugrade-build");
    here.cpu_runner_dir = dir.path;
    const std::string build = cugrade_build(here, "twice", false);
    CHECK(build.starts_with(std::string(config::version) + " #"));
    CHECK(build.size() == std::string(config::version).size() + 2 + 16);
    CHECK(cugrade_build(here, "twice", false) == build);  // the same files, the same build
    CHECK(cugrade_build(here, "twice", true) != build);   // the CUDA backend's runners
    CHECK(cugrade_build(here, "vecadd", false) != build); // another assignment's
    std::filesystem::create_directories(dir.path / "twice");
    REQUIRE(write_file_atomically(here.cpu_runner_library("twice"), "a runner library"));
    const std::string rebuilt = cugrade_build(here, "twice", false);
    CHECK(rebuilt != build);
    REQUIRE(write_file_atomically(here.cpu_runner_library("twice"), "another runner library"));
    CHECK(cugrade_build(here, "twice", false) != rebuilt);
  }
  SUBCASE("what changed, in words; nothing when nothing did") {
    CHECK(settings_changed(plain, plain).empty());
    GradingSettings other = plain;
    other.hidden = "keyed:0123456789abcdef";
    CHECK(settings_changed(other, plain) == "the hidden cases (keyed by a course secret, now none)");
    CHECK(settings_changed(std::nullopt, plain) == "settings an earlier version of cugrade did not keep");
    GradingSettings older = plain, rebuilt = plain, unrecorded = plain;
    older.cugrade = "0.0.9 #0123456789abcdef";
    rebuilt.cugrade = std::string(config::version) + " #0123456789abcdef";
    unrecorded.cugrade = "";
    CHECK(settings_changed(older, plain) == fmt::format("cugrade (0.0.9, now {})", config::version));
    CHECK(settings_changed(rebuilt, plain) ==
          fmt::format("cugrade's build ({} rebuilt: its program, graders or runners changed)", config::version));
    CHECK(settings_changed(unrecorded, plain) ==
          fmt::format("cugrade (a build that did not record itself, now {})", plain.cugrade));
    older.hidden = "keyed:0123456789abcdef";
    CHECK(settings_changed(older, plain) ==
          fmt::format("the hidden cases (keyed by a course secret, now none), cugrade (0.0.9, now {})", config::version));
  }
}
