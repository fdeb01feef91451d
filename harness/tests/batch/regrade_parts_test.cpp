#include "batch/regrade_parts.hpp"

#include <doctest/doctest.h>

#include "core/atomic_file.hpp"
#include "temp_dir.hpp"

using namespace cugrade;

namespace {
ScoreChange change_of(std::string student, double old_score, double new_score) {
  return {std::move(student), old_score, new_score, 7.0, "fast: 5 → 0", "", "the submission's files"};
}
}  // namespace

TEST_CASE("batch::save_regrade_part") {
  test::TempDir out("regrade-parts");
  SUBCASE("no one graded again: no file") {
    REQUIRE(save_regrade_part(out.path, "1-of-2", {}));
    CHECK_FALSE(std::filesystem::exists(regrade_parts_dir(out.path)));
  }
  SUBCASE("a requeued part: its two runs together, the later word on a student kept") {
    REQUIRE(save_regrade_part(out.path, "1-of-2", {{"alice", "bob"}, {change_of("alice", 7, 2), change_of("bob", 7, 6)}}));
    REQUIRE(save_regrade_part(out.path, "1-of-2", {{"bob", "carol"}, {change_of("carol", 1, 2)}}));
    REQUIRE(save_regrade_part(out.path, "2-of-2", {{"dave"}, {}}));
    const std::string line = collect_regrade_parts(out.path).value();
    CHECK(line == "Regrade: 2 of 4 students graded again got a new score: " + (out.path / "regrade.csv").string() +
                      " (old, new and what changed).");
    CHECK(read_whole_file(out.path / "regrade.csv").value() ==
          "student,old_score,new_score,difference,max_score,steps,outcome,what_changed\r\n"
          "alice,7,2,-5,7,fast: 5 → 0,,the submission's files\r\n"
          "carol,1,2,1,7,fast: 5 → 0,,the submission's files\r\n");
    CHECK_FALSE(std::filesystem::exists(regrade_parts_dir(out.path)));  // consumed
    CHECK(collect_regrade_parts(out.path).value() == "");                // a second collect: nothing new
    CHECK(std::filesystem::exists(out.path / "regrade.csv"));
  }
  SUBCASE("an id of any bytes comes back whole") {
    const std::string id("\xff\x01 smith, john", 14);
    REQUIRE(save_regrade_part(out.path, "1-of-1", {{id}, {change_of(id, 3, 4)}}));
    REQUIRE(collect_regrade_parts(out.path));
    CHECK(read_whole_file(out.path / "regrade.csv").value().find("\"" + id + "\",3,4,1,") != std::string::npos);
  }
}

TEST_CASE("batch::collect_regrade_parts") {
  test::TempDir out("regrade-collect");
  CHECK(collect_regrade_parts(out.path).value() == "");  // never sharded
  REQUIRE(write_file_atomically(regrade_parts_dir(out.path) / "1-of-2.json", "not json"));
  CHECK(collect_regrade_parts(out.path).error().message.find("1-of-2.json cannot be read") != std::string::npos);
}
