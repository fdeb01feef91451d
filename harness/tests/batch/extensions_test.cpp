#include "batch/extensions.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.hpp"

using namespace cugrade;

namespace {
constexpr std::int64_t kDeadline = 1767225600;  // 2026-01-01T00:00:00Z
}  // namespace

TEST_CASE("batch::parse_extensions") {
  SUBCASE("a header in any order with more columns; ids with commas quoted; CRLF and a byte-order mark") {
    const std::string text =
        "\xEF\xBB\xBFReason,Student,Deadline\r\n"
        "flu,alice,2026-01-03T00:00:00Z\r\n"
        "\"family, travel\",\"smith, john\",2026-01-02T12:00:00+01:00\r\n"
        "\r\n"
        "  , carol ,  2026-01-01T00:00:00Z \r\n";
    const Extensions e = parse_extensions(text, "ext.csv", kDeadline).value();
    CHECK(e.shown == "ext.csv");
    REQUIRE(e.deadlines.size() == 3);
    CHECK(e.deadlines.at("alice") == kDeadline + 2 * 86400);
    CHECK(e.deadlines.at("smith, john") == kDeadline + 86400 + 11 * 3600);
    CHECK(e.deadlines.at("carol") == kDeadline);  // the class's own deadline is allowed
  }
  SUBCASE("a header alone: no extension") {
    CHECK(parse_extensions("student,deadline\n", "ext.csv", kDeadline).value().deadlines.empty());
  }
  SUBCASE("bad input: the file, the line and what is wrong") {
    CHECK(parse_extensions("", "ext.csv", kDeadline).error().message ==
          "ext.csv: empty; expected a header \"student,deadline\" and a row per student");
    CHECK(parse_extensions("alice,2026-01-03\n", "ext.csv", kDeadline).error().message.find(
              "ext.csv:1: the first line names the columns: expected \"student,deadline\"") == 0);
    CHECK(parse_extensions("student,deadline\nalice,2026-01-03\nbob,next friday\n", "ext.csv", kDeadline)
              .error()
              .message.find("ext.csv:3: the deadline of 'bob', 'next friday': expected a date and time such as") == 0);
    CHECK(parse_extensions("student,deadline\nbob,2026-02-30T10:00Z\n", "ext.csv", kDeadline).error().message ==
          "ext.csv:2: the deadline of 'bob', '2026-02-30T10:00Z': no such date");
    CHECK(parse_extensions("student,deadline\nalice,2026-01-03Z\nalice,2026-01-04T00:00Z\n", "ext.csv", kDeadline)
              .error()
              .message.find("ext.csv:2:") == 0);  // "2026-01-03Z" is not a form --deadline takes
    CHECK(parse_extensions("student,deadline\nalice,2026-01-03T00:00Z\nalice,2026-01-04T00:00Z\n", "ext.csv",
                           kDeadline)
              .error()
              .message == "ext.csv:3: 'alice' is listed twice");
    CHECK(parse_extensions("student,deadline\nalice,2025-12-30T00:00Z\n", "ext.csv", kDeadline).error().message ==
          "ext.csv:2: the deadline of 'alice', 2025-12-30T00:00:00Z, is before the class's (2026-01-01T00:00:00Z): an "
          "extension gives more time");
    CHECK(parse_extensions("student,deadline\n,2026-01-03T00:00Z\n", "ext.csv", kDeadline).error().message ==
          "ext.csv:2: no student id");
    CHECK(parse_extensions("student,deadline\nalice\n", "ext.csv", kDeadline).error().message ==
          "ext.csv:2: fewer columns than the header's (a row is: student,deadline)");
    CHECK(parse_extensions("student,deadline\n\"alice,2026-01-03T00:00Z\n", "ext.csv", kDeadline).error().message ==
          "ext.csv:2: a quoted field is never closed");
  }
}

TEST_CASE("batch::read_extensions") {
  test::TempDir dir("extensions");
  std::ofstream(dir.path / "ext.csv") << "student,deadline\nalice,2026-01-03T00:00:00Z\n";
  CHECK(read_extensions(dir.path / "ext.csv", kDeadline).value().deadlines.at("alice") == kDeadline + 2 * 86400);
  CHECK(read_extensions(dir.path / "missing.csv", kDeadline).error().message.find("--extensions: cannot read ") == 0);
}

TEST_CASE("batch::check_extension_students") {
  Extensions e;
  e.shown = "ext.csv";
  e.deadlines = {{"alice", kDeadline}, {"bbo", kDeadline}};
  CHECK(check_extension_students(e, {"alice", "bob", "carol"}).error().message ==
        "ext.csv: 1 student with no submission in this class: 'bbo'; did you mean 'bob'? (fix the id, or remove the "
        "row of a student who handed in nothing)");
  e.deadlines.erase("bbo");
  CHECK(check_extension_students(e, {"alice", "bob"}).value());
}
