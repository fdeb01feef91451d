#include "batch/class_notes.hpp"

#include <doctest/doctest.h>

#include "batch/leaderboard.hpp"
#include "batch/record_samples.hpp"
#include "batch/student_paths.hpp"
#include "core/atomic_file.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::write_class_notes") {
  test::TempDir out("class-notes");
  StudentRecord late = sample_record("alice", Outcome::passed, Outcome::passed, 3.0);
  late.submitted_from = "git";
  late.submitted_unix += 2 * 86400;
  StudentRecord on_time = sample_record("bob", Outcome::passed, Outcome::passed, 3.0);
  on_time.submitted_from = "git";
  LatePlan plan;
  plan.deadline_unix = 1767225600;
  plan.policy = parse_late_policy("per-day=10%").value();
  const auto markdown = [&](const std::string& student) {
    return read_whole_file(student_reports_dir(out.path, student) / "report.md").value_or("(none)");
  };
  SUBCASE("late notes") {
    REQUIRE(write_class_notes(out.path, {late, on_time}, {&plan, {}}));
    CHECK(markdown("alice").find("final score 5.6 of 7") != std::string::npos);
    CHECK(markdown("bob") == "(none)");  // on time: its reports are left as the batch wrote them
    CHECK(read_whole_file(class_noted_file(out.path)).value() == "alice\n");
    SUBCASE("the policy dropped: the note goes, and the list with it") {
      REQUIRE(write_class_notes(out.path, {late, on_time}, {}));
      CHECK(markdown("alice").find("final score") == std::string::npos);
      CHECK(markdown("alice").find("Doubling a vector") != std::string::npos);
      CHECK_FALSE(std::filesystem::exists(class_noted_file(out.path)));
    }
  }
  SUBCASE("each student's own leaderboard name, after the late note; no one else's") {
    const ClassNotes notes{&plan, {{"alice", "anon-0a1b2c3d"}, {"bob", "anon-4e5f6071"}}};
    CHECK(class_notes_of(notes, late) ==
          std::vector<std::string>{class_notes_of({&plan, {}}, late).at(0), leaderboard_note("anon-0a1b2c3d")});
    REQUIRE(write_class_notes(out.path, {late, on_time}, notes));
    CHECK(markdown("alice").find("you are anon-0a1b2c3d") != std::string::npos);
    CHECK(markdown("alice").find("anon-4e5f6071") == std::string::npos);
    CHECK(markdown("bob").find("you are anon-4e5f6071") != std::string::npos);
    CHECK(read_whole_file(class_noted_file(out.path)).value() == "alice\nbob\n");
    SUBCASE("no pseudonyms any more (collected without the secret): the names go") {
      REQUIRE(write_class_notes(out.path, {late, on_time}, {&plan, {}}));
      CHECK(markdown("alice").find("anon-") == std::string::npos);
      CHECK(markdown("alice").find("final score 5.6 of 7") != std::string::npos);
      CHECK(markdown("bob").find("anon-") == std::string::npos);
      CHECK(read_whole_file(class_noted_file(out.path)).value() == "alice\n");
    }
  }
  SUBCASE("the list an earlier cugrade kept (.late-noted) is taken over") {
    REQUIRE(write_class_notes(out.path, {late, on_time}, {&plan, {}}));
    std::filesystem::rename(class_noted_file(out.path), out.path / ".late-noted");
    REQUIRE(write_class_notes(out.path, {late, on_time}, {}));
    CHECK(markdown("alice").find("final score") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out.path / ".late-noted"));
  }
}
