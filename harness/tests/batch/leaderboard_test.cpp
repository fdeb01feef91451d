#include "batch/leaderboard.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <fmt/format.h>
#include <sstream>

#include "batch/pseudonym.hpp"
#include "batch/record_samples.hpp"
#include "process/sandbox.hpp"
#include "report/gradescope_report.hpp"
#include "temp_dir.hpp"

namespace cugrade {
namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("batch::make_leaderboard") {
  const Spec spec = test::twice_spec();
  const CourseSecret secret("course secret of 2026");
  std::vector<StudentRecord> records{test::timed_record("carol", 0.030), test::timed_record("alice", 0.010), test::timed_record("bob", 0.030),
                                     test::timed_record("dave", 0.020)};
  SUBCASE("fastest first under pseudonyms; equal times share a rank") {
    const Leaderboard board = make_leaderboard(spec, records, {secret, false});
    CHECK(board.assignment == "twice");
    CHECK(board.students == 4);
    CHECK(board.unnamed_reason.empty());
    REQUIRE(board.boards.size() == 1);
    CHECK(board.boards[0].name == "fast");
    CHECK(board.boards[0].size == "n=4096");
    const auto& rows = board.boards[0].rows;
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].name == pseudonym(secret, "alice"));
    CHECK(rows[0].rank == 1);
    CHECK(rows[1].name == pseudonym(secret, "dave"));
    CHECK(rows[1].rank == 2);
    CHECK(rows[2].rank == 3);
    CHECK(rows[3].rank == 3);
    CHECK(rows[2].name < rows[3].name);  // a tie in name order: the same results give the same board
    for (const auto& row : rows) CHECK(row.name.starts_with("anon-"));
  }
  SUBCASE("only what counts; the rest counted by reason") {
    records.push_back(test::sample_record("eve", Outcome::passed, Outcome::wrong_answer, 0.0));
    records.push_back(test::failed_build_record("frank", Outcome::compile_error, "nvcc rejected twice.cu"));
    StudentRecord flagged = test::timed_record("grace", 0.0001);
    flagged.report.performance[0].flags = {"below_roofline_floor"};
    records.push_back(flagged);
    StudentRecord unsealed = test::timed_record("heidi", 0.001);
    unsealed.report.notes.push_back(unsealed_note(SandboxStatus{false, "no user namespaces", "enable them"}));
    records.push_back(unsealed);
    StudentRecord cpu = test::timed_record("ivan", 0.001);
    cpu.report.environment.backend = "cpu";
    records.push_back(cpu);
    const Leaderboard board = make_leaderboard(spec, records, {secret, true});
    CHECK(board.students == 9);
    const auto& rows = board.boards[0].rows;
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].name == "alice");  // --leaderboard-names
    CHECK(board.left_out == std::vector<LeaderboardLeftOut>{{"not every case passed", 1},
                                                            {"not gradable", 1},
                                                            {"not sealed", 1},
                                                            {"not timed on a GPU", 1},
                                                            {"timing flagged: below_roofline_floor (fast)", 1}});
  }
  SUBCASE("no course secret and no --leaderboard-names: nobody named, and why") {
    const Leaderboard board = make_leaderboard(spec, records, {std::nullopt, false});
    CHECK(board.boards[0].rows.empty());
    CHECK(board.unnamed_reason.find("--secret-file") != std::string::npos);
    CHECK(board.unnamed_reason.find("--leaderboard-names") != std::string::npos);
  }
  SUBCASE("a time of a target the spec no longer has ranks nowhere") {
    records[0].report.performance[0].params = {{"n", 999}};
    CHECK(make_leaderboard(spec, records, {secret, false}).boards[0].rows.size() == 3);
  }
}

TEST_CASE("batch::render_leaderboard_csv") {
  const Spec spec = test::twice_spec();
  const std::vector<StudentRecord> records{test::timed_record("bob", 0.0301), test::timed_record("alice, jr", 0.0125)};
  const Leaderboard board = make_leaderboard(spec, records, {std::nullopt, true});
  const std::string csv = render_leaderboard_csv(board);
  CHECK(csv.starts_with("board,step,size,rank,student,time_ms,reference_ms,ratio,rate,rate_unit\n"));
  CHECK(csv.find("fast,fast,n=4096,1,\"alice, jr\",0.0125,0.02,") != std::string::npos);
  CHECK(csv.find("fast,fast,n=4096,2,bob,0.0301,0.02,") != std::string::npos);
  SUBCASE("each time is the number Gradescope's leaderboard entry of that student carries") {
    for (const StudentRecord& r : records) {
      const nlohmann::json entries = report_to_gradescope(r.report)["leaderboard"];
      REQUIRE(entries.size() == 1);
      CHECK(entries[0]["name"] == "fast time (ms)");
      CHECK(csv.find(fmt::format(",{},", entries[0]["value"].dump())) != std::string::npos);
    }
  }
}

TEST_CASE("batch::write_leaderboard") {
  test::TempDir dir;
  const Spec spec = test::twice_spec();
  REQUIRE(write_leaderboard(dir.path, spec, {test::timed_record("alice", 0.01)}, {CourseSecret("s"), false}));
  CHECK(read(dir.path / "leaderboard.csv").find(pseudonym(CourseSecret("s"), "alice")) != std::string::npos);
  CHECK(read(dir.path / "leaderboard.html").find(pseudonym(CourseSecret("s"), "alice")) != std::string::npos);
  CHECK(read(dir.path / "leaderboard.html").find("alice<") == std::string::npos);
}

}  // namespace
}  // namespace cugrade

namespace cugrade {

TEST_CASE("batch::leaderboard_pseudonyms") {
  const Spec spec = test::twice_spec();
  const CourseSecret secret("course secret of 2026");
  const std::vector<StudentRecord> records{test::timed_record("alice", 0.010), test::timed_record("bob", 0.020)};
  CHECK(leaderboard_pseudonyms(spec, records, {secret, false}) == class_pseudonyms(secret, {"alice", "bob"}));
  CHECK(leaderboard_pseudonyms(spec, records, {secret, true}).empty());        // --leaderboard-names: ids
  CHECK(leaderboard_pseudonyms(spec, records, {std::nullopt, false}).empty()); // no secret: no names
  Spec untimed = spec;
  untimed.performance.clear();
  CHECK(leaderboard_pseudonyms(untimed, records, {secret, false}).empty());    // no leaderboard applies
  // The names on the board are these.
  const Leaderboard board = make_leaderboard(spec, records, {secret, false});
  REQUIRE(board.boards.at(0).rows.size() == 2);
  CHECK(board.boards[0].rows[0].name == leaderboard_pseudonyms(spec, records, {secret, false}).at("alice"));
}

TEST_CASE("batch::leaderboard_note") {
  const std::string note = leaderboard_note("anon-0a1b2c3d");
  CHECK(note.starts_with("On the class's speed leaderboard you are anon-0a1b2c3d "));
  CHECK(note.find("every case passed") != std::string::npos);
}

}  // namespace cugrade
