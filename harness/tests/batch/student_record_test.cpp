#include "batch/student_record.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"
#include "report/golden.hpp"
#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::record_to_json") {
  const StudentRecord alice = sample_record("alice", Outcome::passed, Outcome::wrong_answer, 1.5);
  SUBCASE("the layout a restarted batch reads (golden)") {
    check_golden("batch/record_alice.json", record_to_json(alice).dump(2) + "\n");
  }
  SUBCASE("read back, it is the same record") {
    auto back = record_from_json(record_to_json(alice));
    REQUIRE_MESSAGE(back.has_value(), back.error().message);
    CHECK(*back == alice);
  }
  SUBCASE("a JSON file that is not a record is refused") {
    CHECK(record_from_json(nlohmann::json{{"score", 3}}).error().message == "not a cugrade batch record");
    nlohmann::json other = record_to_json(alice);
    other["version"] = 2;
    CHECK(record_from_json(other).error().message == "a batch record of another version (2)");
    other = record_to_json(alice);
    other.erase("source_sha256");
    CHECK(record_from_json(other).error().message.starts_with("malformed batch record: "));
  }
}

TEST_CASE("batch::load_record") {
  TempFolder out;
  const StudentRecord alice = sample_record("alice", Outcome::passed, Outcome::passed, 3.0);
  SUBCASE("none yet") {
    auto loaded = load_record(out.path, "alice");
    REQUIRE(loaded.has_value());
    CHECK_FALSE(loaded->has_value());
  }
  SUBCASE("saved atomically under results/, then loaded") {
    REQUIRE(save_record(out.path, alice).has_value());
    CHECK(fs::exists(out.path / "results" / "alice.json"));
    CHECK(std::distance(fs::directory_iterator(out.path / "results"), fs::directory_iterator()) == 1);
    auto loaded = load_record(out.path, "alice");
    REQUIRE(loaded.has_value());
    REQUIRE(loaded->has_value());
    CHECK(**loaded == alice);
  }
  SUBCASE("a damaged file is an error, not a result") {
    write_text(out.path / "results" / "alice.json", "{\"format\": \"cugrade-batch-rec");
    auto loaded = load_record(out.path, "alice");
    REQUIRE_FALSE(loaded.has_value());
    CHECK(loaded.error().message == "its result file is not valid JSON");
  }
  SUBCASE("ids with any bytes: saved under their mapped name, read back as the same id") {
    for (const std::string& id : {std::string("o'brien \"x\"\nline"), std::string("\xff\xfe caf\xe9"),
                                 std::string(255, '\xe9'), std::string("$(touch pwned)")}) {
      CAPTURE(id);
      StudentRecord odd = alice;
      odd.student = id;
      odd.source = id;
      REQUIRE(save_record(out.path, odd).has_value());
      CHECK(fs::exists(record_path(out.path, id)));
      auto loaded = load_record(out.path, id);
      REQUIRE_MESSAGE(loaded.has_value(), loaded.error().message);
      REQUIRE(loaded->has_value());
      CHECK((*loaded)->student == id);
    }
    CHECK_FALSE(fs::exists(out.path / "pwned"));
  }
  SUBCASE("a file naming another student is not this one's") {
    REQUIRE(save_record(out.path, alice).has_value());
    fs::rename(out.path / "results" / "alice.json", out.path / "results" / "bob.json");
    CHECK(load_record(out.path, "bob").error().message == "its result file names another student");
  }
}
