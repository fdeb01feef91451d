#include "batch/late_plan.hpp"

#include <doctest/doctest.h>

#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
constexpr std::int64_t kDeadline = 1767225600;  // 2026-01-01T00:00:00Z
constexpr std::int64_t kDay = 86400;

LatePlan course_plan() {
  LatePlan plan;
  plan.deadline_unix = kDeadline;
  plan.policy = parse_late_policy("grace=15m,per-day=10%,max-days=3").value();
  plan.extensions.deadlines = {{"ext", kDeadline + 2 * kDay}};
  return plan;
}

/// A record of 6 of 7 points handed in `after` seconds after the class deadline, by git.
StudentRecord handed_in(std::string student, std::int64_t after, std::string from = "git") {
  StudentRecord r = sample_record(std::move(student), Outcome::passed, Outcome::passed, 2.0);
  r.submitted_unix = kDeadline + after;
  r.submitted_from = std::move(from);
  return r;
}
}  // namespace

TEST_CASE("batch::LatePlan::deadline_of") {
  const LatePlan plan = course_plan();
  CHECK(plan.deadline_of("ext") == kDeadline + 2 * kDay);
  CHECK(plan.deadline_of("alice") == kDeadline);
}

TEST_CASE("batch::trusted_submission_time") {
  std::string why;
  CHECK(trusted_submission_time(handed_in("a", 5, "git"), why) == kDeadline + 5);
  CHECK(trusted_submission_time(handed_in("a", 5, "gradescope"), why) == kDeadline + 5);
  CHECK(trusted_submission_time(handed_in("a", 5, "archive"), why) == kDeadline + 5);
  CHECK(trusted_submission_time(handed_in("a", 5, blackboard_attempt), why) == kDeadline + 5);
  CHECK(why.empty());
  CHECK_FALSE(trusted_submission_time(handed_in("a", 5, "files"), why));
  CHECK(why == "its only time is the files' modification times (the copy's, not the student's)");
  CHECK_FALSE(trusted_submission_time(handed_in("a", 5, "archive file"), why));
  CHECK(why.find("the archive file's modification time") != std::string::npos);
  CHECK_FALSE(trusted_submission_time(handed_in("a", 5, canvas_late), why));
  CHECK(why == "Canvas marks it late but gives no time to count days from");
  StudentRecord unread = handed_in("a", 0, blackboard_attempt);
  unread.submitted_unix = 0;
  CHECK_FALSE(trusted_submission_time(unread, why));
}

TEST_CASE("batch::assess_student") {
  const LatePlan plan = course_plan();
  SUBCASE("one started day after the grace: 10 % of the raw score") {
    const StudentLateness l = assess_student(plan, handed_in("alice", 901));
    CHECK(l.assessment.standing == LateStanding::late);
    CHECK(l.raw_score == 6.0);
    CHECK(l.penalty == doctest::Approx(0.6));
    CHECK(l.final_score == doctest::Approx(5.4));
    CHECK_FALSE(l.extended);
  }
  SUBCASE("an extension replaces the deadline for that student alone") {
    const StudentLateness ext = assess_student(plan, handed_in("ext", kDay));  // late by the class's, not by theirs
    CHECK(ext.extended);
    CHECK(ext.deadline_unix == kDeadline + 2 * kDay);
    CHECK(ext.assessment.standing == LateStanding::on_time);
    CHECK(ext.penalty == 0.0);
    const StudentLateness after = assess_student(plan, handed_in("ext", 2 * kDay + 901));  // 1 s after their grace
    CHECK(after.assessment.standing == LateStanding::late);
    CHECK(after.assessment.days_late == 1);
    CHECK(assess_student(plan, handed_in("other", kDay)).assessment.days_late == 1);
  }
  SUBCASE("past max-days: not accepted, final score 0, the raw score still shown") {
    const StudentLateness l = assess_student(plan, handed_in("alice", 900 + 3 * kDay + 1));
    CHECK(l.assessment.standing == LateStanding::too_late);
    CHECK(l.raw_score == 6.0);
    CHECK(l.final_score == 0.0);
  }
  SUBCASE("no trustworthy time: not penalised, and why") {
    const StudentLateness l = assess_student(plan, handed_in("alice", 10 * kDay, "files"));
    CHECK(l.assessment.standing == LateStanding::time_unknown);
    CHECK(l.penalty == 0.0);
    CHECK(l.final_score == 6.0);
    CHECK(l.unknown_because.find("files' modification times") != std::string::npos);
  }
  SUBCASE("Canvas's on-time mark is on time") {
    CHECK(assess_student(plan, handed_in("alice", 10 * kDay, canvas_on_time)).assessment.standing == LateStanding::on_time);
  }
  SUBCASE("a harness error is no grade: nothing to take points from") {
    StudentRecord fault = handed_in("alice", 2 * kDay);
    fault.report.outcome = Outcome::harness_error;
    const StudentLateness l = assess_student(plan, fault);
    CHECK(l.assessment.standing == LateStanding::late);
    CHECK_FALSE(l.raw_score);
    CHECK_FALSE(l.penalty);
    CHECK_FALSE(l.final_score);
  }
  SUBCASE("extensions without a policy: the late standing, no penalty") {
    LatePlan no_policy = plan;
    no_policy.policy.reset();
    const StudentLateness l = assess_student(no_policy, handed_in("alice", 5 * kDay));
    CHECK(l.assessment.standing == LateStanding::late);
    CHECK(l.penalty == 0.0);
    CHECK(l.final_score == 6.0);
  }
}

TEST_CASE("batch::lateness_note") {
  const LatePlan plan = course_plan();
  const auto note = [&](const StudentRecord& r) { return lateness_note(plan, assess_student(plan, r), 7.0); };
  CHECK(note(handed_in("alice", -60)) == "");
  CHECK(note(handed_in("alice", 600)) == "Handed in 10 min after the deadline (2026-01-01T00:00:00Z), within the grace: no penalty.");
  CHECK(note(handed_in("alice", kDay + 3600)) ==
        "Late: handed in 1 d 1 h after the deadline (2026-01-01T00:00:00Z), 2 started days after the grace under the "
        "late policy (15 min grace, then 10 % per started day, not accepted after 3 days): −20 % of the raw score 6 = "
        "−1.2 points; final score 4.8 of 7.");
  CHECK(note(handed_in("alice", 4 * kDay)).find("Not accepted: handed in 4 d after the deadline") == 0);
  CHECK(note(handed_in("alice", 4 * kDay)).find("final score 0 of 7") != std::string::npos);
  CHECK(note(handed_in("alice", 900 + 3 * kDay + 1)).find("Not accepted: handed in 3 d 15 min 1 s after the deadline "
                                                          "(2026-01-01T00:00:00Z), 4 started days after the grace") == 0);
  CHECK(note(handed_in("ext", kDay)) == "On time by the extended deadline (2026-01-03T00:00:00Z).");
  CHECK(note(handed_in("alice", kDay, "files")) ==
        "Hand-in time unknown: its only time is the files' modification times (the copy's, not the student's); no "
        "late penalty was applied.");
}

TEST_CASE("batch::lateness_cell") {
  const LatePlan plan = course_plan();
  CHECK(lateness_cell(assess_student(plan, handed_in("alice", 0))) == "on time");
  CHECK(lateness_cell(assess_student(plan, handed_in("ext", kDay))) == "on time (extension)");
  CHECK(lateness_cell(assess_student(plan, handed_in("alice", 60))) == "in grace");
  CHECK(lateness_cell(assess_student(plan, handed_in("alice", 901))) == "late (1 d): −0.6 (10 %) → 5.4");
  CHECK(lateness_cell(assess_student(plan, handed_in("alice", 5 * kDay))) == "too late (5 d): not accepted, 0");
  CHECK(lateness_cell(assess_student(plan, handed_in("alice", 5, "files"))) == "time unknown: not penalised");
}

TEST_CASE("batch::lateness_fields") {
  const LatePlan plan = course_plan();
  CHECK(lateness_header() == std::vector<std::string>{"due", "days_late", "raw_score", "penalty", "late_outcome"});
  CHECK(lateness_fields(assess_student(plan, handed_in("alice", 901))) ==
        std::vector<std::string>{"2026-01-01T00:00:00Z", "1", "6", "0.6", "late"});
  CHECK(lateness_fields(assess_student(plan, handed_in("ext", 0))) ==
        std::vector<std::string>{"2026-01-03T00:00:00Z", "0", "6", "0", "on_time"});
  CHECK(lateness_fields(assess_student(plan, handed_in("alice", 5, "files"))) ==
        std::vector<std::string>{"2026-01-01T00:00:00Z", "", "6", "0", "time_unknown"});
}

TEST_CASE("batch::lateness_summary") {
  const LatePlan plan = course_plan();
  std::vector<StudentRecord> records{handed_in("a", 0), handed_in("b", 60), handed_in("c", 901),
                                     handed_in("d", 5 * kDay), handed_in("e", 5, "files"), handed_in("ext", kDay)};
  CHECK(lateness_summary(plan, records) ==
        "Late policy: 15 min grace, then 10 % per started day, not accepted after 3 days; 1 extension. 1 in grace, 1 "
        "penalised, 1 not accepted (too late); 6.6 points taken in all.\n"
        "Hand-in time unknown for 1 (not penalised; gradebook.csv's late_outcome says time_unknown, and the report "
        "why): e");
}
