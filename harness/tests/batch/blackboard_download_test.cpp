// Blackboard's "Assignment File Download" (harness/src/batch/blackboard_download.cpp): what its
// file names say, whose user name each is, and when the attempt was handed in.
#include "batch/blackboard_download.hpp"

#include <ctime>

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::blackboard_file_name") {
  // "<assignment>_<user name>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file's own name>", and "....txt".
  const auto read = [](const std::string& name) {
    const auto parsed = blackboard_file_name(name);
    return parsed ? parsed->owner + "|" + parsed->attempt + "|" + parsed->name : std::string("-");
  };
  CHECK(read("HW2 Matmul_jsmith_attempt_2026-11-28-10-00-00_matmul.cu") ==
        "HW2 Matmul_jsmith|2026-11-28-10-00-00|matmul.cu");
  CHECK(read("HW2 Matmul_jsmith_attempt_2026-11-28-10-00-00.txt") == "HW2 Matmul_jsmith|2026-11-28-10-00-00|");
  // The file's own name keeps its underscores, and may say "attempt" too.
  CHECK(read("Lab_2_s1234_attempt_2026-01-05-23-59-59_my_attempt_2026-01-01-00-00-00_x.cu") ==
        "Lab_2_s1234_attempt_2026-01-05-23-59-59_my|2026-01-01-00-00-00|x.cu");
  CHECK(read("Lab 2_s1234_attempt_2026-01-05-23-59-59_hw_attempt_notes.cu") ==
        "Lab 2_s1234|2026-01-05-23-59-59|hw_attempt_notes.cu");
  CHECK(read("Lab 2_s1234_attempt_2026-01-05-23-59-59_hw.zip") == "Lab 2_s1234|2026-01-05-23-59-59|hw.zip");
  // Not Blackboard's: no user name or no assignment, a time of another shape or no real date, no
  // file name, Canvas's and Moodle's names, a plain student folder's.
  CHECK(read("jsmith_attempt_2026-11-28-10-00-00_matmul.cu") == "-");
  CHECK(read("HW2__attempt_2026-11-28-10-00-00_matmul.cu") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-11-28_matmul.cu") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-13-28-10-00-00_matmul.cu") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-02-30-10-00-00_matmul.cu") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-11-28-10-00-00_") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-11-28-10-00-00_..") == "-");
  CHECK(read("HW2_jsmith_attempt_2026-11-28-10-00-00.cu") == "-");
  CHECK(read("smithjohn_12345_678901_matmul.cu") == "-");
  CHECK(read("John Smith_1234_assignsubmission_file_matmul.cu") == "-");
  CHECK(read("alice") == "-");
}

TEST_CASE("batch::blackboard_students") {
  TempFolder dir;
  SUBCASE("the assignment's name from an attempt's text file: user names with '_' kept whole") {
    // The labels are in the course's language; the value that begins the owner is the assignment's.
    write_text(dir.path / "a.txt", "Naam: Jan Smit (j_smit)\nOpdracht: HW_2\nIngediend: 28 november 2026 10:00\n");
    const auto students =
        blackboard_students({"HW_2_j_smit", "HW_2_a_b_c", "HW_2_zed"}, {{"HW_2_j_smit", dir.path / "a.txt"}});
    CHECK(students == std::map<std::string, std::string>{
                          {"HW_2_a_b_c", "a_b_c"}, {"HW_2_j_smit", "j_smit"}, {"HW_2_zed", "zed"}});
  }
  SUBCASE("without a text file that says: the beginning all owners share, up to a '_'") {
    CHECK(blackboard_students({"HW2 Matmul_jsmith", "HW2 Matmul_adoe", "HW2 Matmul_jsmith"}, {}) ==
          std::map<std::string, std::string>{{"HW2 Matmul_adoe", "adoe"}, {"HW2 Matmul_jsmith", "jsmith"}});
    // One user name the beginning of another's.
    CHECK(blackboard_students({"HW2_bob", "HW2_bobby"}, {}) ==
          std::map<std::string, std::string>{{"HW2_bob", "bob"}, {"HW2_bobby", "bobby"}});
    // One student: the last part.
    CHECK(blackboard_students({"HW_2_s1234"}, {}) == std::map<std::string, std::string>{{"HW_2_s1234", "s1234"}});
    // Names that share a "_" part are cut after it, but never merged: distinct owners, distinct names.
    CHECK(blackboard_students({"HW2_s_12", "HW2_s_34"}, {}) ==
          std::map<std::string, std::string>{{"HW2_s_12", "12"}, {"HW2_s_34", "34"}});
  }
  SUBCASE("a text file whose values fit not every owner, or that cannot be read, is not taken") {
    write_text(dir.path / "odd.txt", "Name: someone\nAssignment: HW2_j\n");
    const auto students = blackboard_students({"HW2_j_smit", "HW2_adoe"},
                                              {{"HW2_j_smit", dir.path / "odd.txt"}, {"HW2_adoe", dir.path / "missing.txt"}});
    CHECK(students == std::map<std::string, std::string>{{"HW2_adoe", "adoe"}, {"HW2_j_smit", "j_smit"}});
  }
}

TEST_CASE("batch::blackboard_attempt_unix") {
  std::tm tm{};
  tm.tm_year = 2026 - 1900;
  tm.tm_mon = 10;
  tm.tm_mday = 28;
  tm.tm_hour = 10;
  tm.tm_min = 5;
  tm.tm_sec = 9;
  tm.tm_isdst = -1;
  const auto local = static_cast<std::int64_t>(std::mktime(&tm));
  const auto parsed = blackboard_attempt_unix("2026-11-28-10-05-09");
  REQUIRE(parsed.has_value());
  CHECK(*parsed == local);  // this machine's local time, as --deadline without a zone
  CHECK_FALSE(blackboard_attempt_unix("2026-11-28 10:05:09"));
  CHECK_FALSE(blackboard_attempt_unix("2026-11-31-10-05-09"));
  CHECK_FALSE(blackboard_attempt_unix(""));
}
