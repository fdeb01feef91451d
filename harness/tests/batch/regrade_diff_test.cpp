#include "batch/regrade_diff.hpp"

#include <doctest/doctest.h>

#include "batch/record_samples.hpp"
#include "core/atomic_file.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
/// Alice's record before, and as graded again with her `fast` step failing.
StudentRecord before_record() { return sample_record("alice", Outcome::passed, Outcome::passed, 3.0); }
StudentRecord worse_record() {
  StudentRecord r = sample_record("alice", Outcome::passed, Outcome::wrong_answer, 0.0);
  r.report.started_at = "2026-02-01T00:00:00Z";
  return r;
}
}  // namespace

TEST_CASE("batch::score_change") {
  const Spec spec = twice_spec();
  const EarlierResult before = earlier_result(spec, before_record());
  CHECK(before.score == 7.0);
  CHECK(before.steps.at("fast") == 5.0);
  SUBCASE("the same points: no change, whatever else differs") {
    StudentRecord same = before_record();
    same.report.started_at = "2026-02-01T00:00:00Z";
    same.report.score += 0.001;  // below what the gradebook shows
    CHECK_FALSE(score_change(spec, before, same));
  }
  SUBCASE("a step's points: old, new, which step, the outcome") {
    StudentRecord after = worse_record();
    after.report.cugrade_version = "0.2.0";
    const auto change = score_change(spec, before, after);
    REQUIRE(change);
    CHECK(change->old_score == 7.0);
    CHECK(change->new_score == 2.0);
    CHECK(change->steps == "fast: 5 → 0");
    CHECK(change->outcome == "passed → wrong_answer");
    CHECK(change->changed == "cugrade (0.1.0, now 0.2.0)");
  }
  SUBCASE("another build of cugrade, where both records keep theirs: said once, by the settings") {
    StudentRecord earlier = before_record();
    earlier.settings->cugrade = "0.1.0 #0123456789abcdef";
    StudentRecord after = worse_record();
    after.settings->cugrade = "0.2.0 #fedcba9876543210";
    after.report.cugrade_version = "0.2.0";
    CHECK(score_change(spec, earlier_result(spec, earlier), after)->changed == "cugrade (0.1.0, now 0.2.0)");
  }
  SUBCASE("the spec and the files: said as the resume logic says them") {
    StudentRecord after = worse_record();
    after.settings->spec_sha256 = std::string(64, 'd');
    after.source_sha256 = std::string(64, 'e');
    CHECK(score_change(spec, before, after)->changed ==
          "the submission's files; the assignment's spec (assignment.yaml has changed)");
  }
  SUBCASE("nothing recorded differs (--regrade)") {
    CHECK(score_change(spec, before, worse_record())->changed.find("nothing cugrade records") == 0);
  }
  SUBCASE("an earlier harness error has no score") {
    StudentRecord fault = before_record();
    fault.report.outcome = Outcome::harness_error;
    const auto change = score_change(spec, earlier_result(spec, fault), worse_record());
    REQUIRE(change);
    CHECK_FALSE(change->old_score);
    CHECK(change->steps == "simple: none → 2; fast: none → 0");
    CHECK(change->changed == "the earlier attempt was a harness error (not a grade)");
  }
}

TEST_CASE("batch::render_regrade_csv") {
  ScoreChange bob{"bob", 3.0, 4.5, 7.0, "fast: 1 → 2.5", "", "the submission's files"};
  ScoreChange alice{"=alice", std::nullopt, 2.0, 7.0, "simple: none → 2", "harness_error → wrong_answer", "x, y"};
  CHECK(render_regrade_csv({bob, alice}) ==
        "student,old_score,new_score,difference,max_score,steps,outcome,what_changed\r\n"
        "'=alice,,2,,7,simple: none → 2,harness_error → wrong_answer,\"x, y\"\r\n"
        "bob,3,4.5,1.5,7,fast: 1 → 2.5,,the submission's files\r\n");
}

TEST_CASE("batch::RegradeDiff::write") {
  const Spec spec = twice_spec();
  test::TempDir out("regrade-diff");
  const auto remembered = [&](const StudentRecord& r) {
    RegradeDiff diff(spec);
    diff.remember(std::optional<StudentRecord>(r));
    diff.remember(std::optional<StudentRecord>{});  // a student graded for the first time
    return diff;
  };
  SUBCASE("a changed score: the file and a line naming it") {
    const auto line = remembered(before_record()).write(out.path, {worse_record()}).value();
    CHECK(line == "Regrade: 1 of 1 student graded again got a new score: " + (out.path / "regrade.csv").string() +
                      " (old, new and what changed).");
    const auto text = read_whole_file(out.path / "regrade.csv").value();
    CHECK(text.find("alice,7,2,-5,7,fast: 5 → 0,passed → wrong_answer,") != std::string::npos);
  }
  SUBCASE("graded again, no score changed: no file, an older one removed") {
    REQUIRE(write_file_atomically(out.path / "regrade.csv", "old\r\n"));
    StudentRecord same = before_record();
    same.seconds.build = 9.0;  // graded again: another record, the same points
    CHECK(remembered(before_record()).write(out.path, {same}).value() ==
          "Regrade: 1 student graded again, no score changed (no regrade.csv).");
    CHECK_FALSE(std::filesystem::exists(out.path / "regrade.csv"));
  }
  SUBCASE("no one graded again (the record as it was): nothing said, the file left") {
    REQUIRE(write_file_atomically(out.path / "regrade.csv", "old\r\n"));
    CHECK(remembered(before_record()).write(out.path, {before_record()}).value() == "");
    CHECK(std::filesystem::exists(out.path / "regrade.csv"));
  }
}
