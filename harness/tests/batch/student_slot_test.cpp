// One student's way through a batch: a submission that cannot be built is the student's result
// before anything runs, and the record says where it came from and when it was handed in.
#include "batch/student_slot.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"
#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
Spec twice_spec() {
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
  REQUIRE(loaded.has_value());
  return *loaded;
}
}  // namespace

TEST_CASE("batch::prepare_and_build") {
  TempFolder root;
  FakeProcessRunner processes;
  Locations where;
  CheckContext context{processes, where};
  const Spec spec = twice_spec();
  StudentSlot slot;
  slot.source = {"erin", root.path / "class" / "erin"};
  slot.options.backend = Backend::cpu;
  const fs::path work = root.path / "work" / "erin";
  write_text(work / "left-behind.o", "from a killed run");

  SUBCASE("what could not be read is the student's result, nothing unpacked or built") {
    slot.print = fail("erin: past the size limit");
    prepare_and_build(slot, work, context, spec, twice_grader, UnpackLimits{}, false);
    REQUIRE(slot.early.has_value());
    CHECK(slot.early->outcome == Outcome::not_run);
    CHECK(slot.early->build.message == "erin: past the size limit");
    CHECK_FALSE(slot.built.has_value());
    CHECK_FALSE(fs::exists(work / "left-behind.o"));
    CHECK(processes.requests().empty());
  }
  SUBCASE("an empty folder: nothing to build") {
    fs::create_directories(slot.source.path);
    slot.print = fingerprint_submission(slot.source);
    prepare_and_build(slot, work, context, spec, twice_grader, UnpackLimits{}, false);
    REQUIRE(slot.early.has_value());
    CHECK(slot.early->build.message == "the submission is empty");
    CHECK(processes.requests().empty());
  }
}

TEST_CASE("batch::student_record") {
  StudentSlot slot;
  slot.source = {"alice", "/class/alice.zip", SourceKind::zip};
  SubmissionFingerprint print;
  print.sha256 = "abc";
  print.submitted_unix = 100;
  print.bytes = 10;
  slot.print = print;
  slot.unpack_seconds = 0.5;
  GradeReport report;
  report.score = 3.0;
  StageSeconds seconds;
  seconds.build = 2.0;

  SUBCASE("the archive file's time, without better evidence") {
    const StudentRecord record = student_record(slot, report, seconds, GradingSettings{});
    CHECK(record.student == "alice");
    CHECK(record.source == "alice.zip");
    CHECK(record.source_sha256 == "abc");
    CHECK(record.submitted_unix == 100);
    CHECK(record.submitted_from == "archive file");
    CHECK(record.seconds.build == 2.0);
    CHECK(record.unpack_seconds == 0.5);
    CHECK(record.report.score == 3.0);
    CHECK(record.settings.has_value());
  }
  SUBCASE("the time found in its files wins") {
    slot.submitted = SubmissionTime{200, "git"};
    const StudentRecord record = student_record(slot, report, seconds, GradingSettings{});
    CHECK(record.submitted_unix == 200);
    CHECK(record.submitted_from == "git");
  }
  SUBCASE("nothing handed in has no time") {
    slot.print->bytes = 0;
    slot.submitted = SubmissionTime{200, "files"};
    const StudentRecord record = student_record(slot, report, seconds, GradingSettings{});
    CHECK(record.submitted_unix == 0);
    CHECK(record.submitted_from == nothing_handed_in);
  }
}
