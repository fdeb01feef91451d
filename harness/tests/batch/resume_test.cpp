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
  SUBCASE("an id with a comma in it, given whole") {
    std::vector<SubmissionSource> with_comma = the_class;
    with_comma.push_back({"smith, john", "smith, john", SourceKind::folder});
    auto selection = parse_regrade(std::string("smith, john"), with_comma);
    REQUIRE(selection.has_value());
    CHECK(selection->students == std::set<std::string>{"smith, john"});
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
  const GradingSettings settings = *graded.settings;
  const auto check = [](const GradeDecision& d, bool grade, const std::string& reason, bool again) {
    CHECK(d.grade == grade);
    CHECK(d.reason == reason);
    CHECK(d.again == again);
  };

  SUBCASE("up to date: kept") { check(decide_grading("alice", same, previous, nobody, settings), false, "up to date", false); }
  SUBCASE("no result yet") {
    check(decide_grading("alice", same, std::optional<StudentRecord>{}, nobody, settings), true, "not graded yet", false);
  }
  SUBCASE("an unreadable result") {
    check(decide_grading("alice", same, fail("its result file is not valid JSON"), nobody, settings), true,
          "its earlier result cannot be used (its result file is not valid JSON)", true);
  }
  SUBCASE("--regrade, all or by name") {
    RegradeSelection all;
    all.all = true;
    check(decide_grading("alice", same, previous, all, settings), true, "--regrade", true);
    RegradeSelection alice;
    alice.students = {"alice"};
    check(decide_grading("alice", same, previous, alice, settings), true, "--regrade alice", true);
  }
  SUBCASE("files changed since") {
    check(decide_grading("alice", print_of(std::string(64, 'c')), previous, nobody, settings), true,
          "its files changed since it was graded", true);
  }
  SUBCASE("files unreadable now, or last time") {
    check(decide_grading("alice", fail("cannot read alice/x.cu"), previous, nobody, settings), true, "its files cannot be read",
          true);
    StudentRecord unread = graded;
    unread.source_sha256.clear();
    check(decide_grading("alice", same, std::optional<StudentRecord>{unread}, nobody, settings), true,
          "its files could not be read last time", true);
  }
  SUBCASE("graded otherwise: another assignment, spec, course secret, backend or grading option") {
    GradingSettings now = settings;
    now.assignment = "reduction";
    check(decide_grading("alice", same, previous, nobody, now), true,
          "it was graded with other settings: the assignment (twice, now reduction)", true);
    now = settings;
    now.spec_sha256 = std::string(64, 'd');
    check(decide_grading("alice", same, previous, nobody, now), true,
          "it was graded with other settings: the assignment's spec (assignment.yaml has changed)", true);
    now = settings;
    now.hidden = "keyed:0123456789abcdef";
    now.performance = false;
    check(decide_grading("alice", same, previous, nobody, now), true,
          "it was graded with other settings: the hidden cases (none, now keyed by a course secret), "
          "the performance timing (on, now off)", true);
    StudentRecord keyed = graded;
    keyed.settings->hidden = "keyed:fedcba9876543210";
    check(decide_grading("alice", same, std::optional<StudentRecord>{keyed}, nobody, now), true,
          "it was graded with other settings: the hidden cases (keyed by another course secret), "
          "the performance timing (on, now off)", true);
    now = settings;
    now.backend = "cpu";
    now.sanitizer = false;
    check(decide_grading("alice", same, previous, nobody, now), true,
          "it was graded with other settings: the backend (cuda, now cpu), compute-sanitizer (on, now off)", true);
  }
  SUBCASE("a record of an earlier cugrade, which kept no settings, is graded again") {
    StudentRecord old = graded;
    old.settings.reset();
    check(decide_grading("alice", same, std::optional<StudentRecord>{old}, nobody, settings), true,
          "it was graded with other settings: settings an earlier version of cugrade did not keep", true);
  }
  SUBCASE("a harness error is retried") {
    StudentRecord fault = graded;
    fault.report.outcome = Outcome::harness_error;
    check(decide_grading("alice", same, std::optional<StudentRecord>{fault}, nobody, settings), true,
          "the last attempt ended in a harness error", true);
  }
}
