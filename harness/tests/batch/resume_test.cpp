#include "batch/resume.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"
#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
const std::vector<SubmissionSource> the_class{{"alice", "alice", SourceKind::folder},
                                              {"bob", "bob.zip", SourceKind::zip},
                                              {"carol", "carol", SourceKind::folder}};

SubmissionFingerprint print_of(std::string sha256) {
  SubmissionFingerprint print;
  print.sha256 = std::move(sha256);
  return print;
}
}  // namespace

TEST_CASE("batch::parse_regrade") {
  SUBCASE("absent: nobody") {
    auto selection = parse_regrade(std::nullopt, the_class);
    REQUIRE(selection.has_value());
    CHECK_FALSE(selection->all);
    CHECK_FALSE(selection->includes("alice"));
  }
  SUBCASE("empty: everyone") {
    auto selection = parse_regrade(std::string(), the_class);
    REQUIRE(selection.has_value());
    CHECK(selection->includes("alice"));
    CHECK(selection->includes("carol"));
  }
  SUBCASE("a list") {
    auto selection = parse_regrade(std::string("alice, carol"), the_class);
    REQUIRE(selection.has_value());
    CHECK(selection->includes("alice"));
    CHECK_FALSE(selection->includes("bob"));
    CHECK(selection->includes("carol"));
  }
  SUBCASE("a name with no submission names the nearest one") {
    auto selection = parse_regrade(std::string("alice,bobb"), the_class);
    REQUIRE_FALSE(selection.has_value());
    CHECK(selection.error().message == "--regrade: there is no submission of 'bobb'; did you mean 'bob'?");
  }
}

TEST_CASE("batch::decide_grading") {
  const StudentRecord graded = sample_record("alice", Outcome::passed, Outcome::passed, 3.0);
  const Result<SubmissionFingerprint> same = print_of(graded.source_sha256);
  const Result<std::optional<StudentRecord>> previous = std::optional<StudentRecord>{graded};
  const RegradeSelection nobody;
  const auto check = [](const GradeDecision& d, bool grade, const std::string& reason, bool again) {
    CHECK(d.grade == grade);
    CHECK(d.reason == reason);
    CHECK(d.again == again);
  };

  SUBCASE("up to date: kept") { check(decide_grading("alice", same, previous, nobody), false, "up to date", false); }
  SUBCASE("no result yet") {
    check(decide_grading("alice", same, std::optional<StudentRecord>{}, nobody), true, "not graded yet", false);
  }
  SUBCASE("an unreadable result") {
    check(decide_grading("alice", same, fail("its result file is not valid JSON"), nobody), true,
          "its earlier result cannot be used (its result file is not valid JSON)", true);
  }
  SUBCASE("--regrade, all or by name") {
    RegradeSelection all;
    all.all = true;
    check(decide_grading("alice", same, previous, all), true, "--regrade", true);
    RegradeSelection alice;
    alice.students = {"alice"};
    check(decide_grading("alice", same, previous, alice), true, "--regrade alice", true);
  }
  SUBCASE("files changed since") {
    check(decide_grading("alice", print_of(std::string(64, 'c')), previous, nobody), true,
          "its files changed since it was graded", true);
  }
  SUBCASE("files unreadable now, or last time") {
    check(decide_grading("alice", fail("cannot read alice/x.cu"), previous, nobody), true, "its files cannot be read",
          true);
    StudentRecord unread = graded;
    unread.source_sha256.clear();
    check(decide_grading("alice", same, std::optional<StudentRecord>{unread}, nobody), true,
          "its files could not be read last time", true);
  }
  SUBCASE("a harness error is retried") {
    StudentRecord fault = graded;
    fault.report.outcome = Outcome::harness_error;
    check(decide_grading("alice", same, std::optional<StudentRecord>{fault}, nobody), true,
          "the last attempt ended in a harness error", true);
  }
}
