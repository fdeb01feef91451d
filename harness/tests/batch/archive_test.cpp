#include "batch/archive.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
/// The error unpacking `entries` (as a zip or tar.gz) gives; fails the test when it succeeds.
std::string refusal(const std::vector<Entry>& entries, bool zip, const UnpackLimits& limits = {}) {
  TempFolder dir;
  make_archive(dir.path / "a", entries, zip);
  auto unpacked = unpack_archive(dir.path / "a", dir.path / "out", limits);
  REQUIRE_FALSE(unpacked.has_value());
  CHECK_FALSE(fs::exists(dir.path / "evil"));
  return unpacked.error().message;
}
}  // namespace

TEST_CASE("batch::unpack_archive") {
  for (const bool zip : {true, false}) {
    CAPTURE(zip);
    SUBCASE("files and folders land where they belong") {
      TempFolder dir;
      make_archive(dir.path / "alice", {{"alice/", "", Entry::folder}, {"alice/matmul.cu", "int x;\n"},
                                        {"./alice/notes/readme.txt", "hi"}}, zip);
      auto unpacked = unpack_archive(dir.path / "alice", dir.path / "out");
      REQUIRE_MESSAGE(unpacked.has_value(), unpacked.error().message);
      CHECK(read_text(dir.path / "out" / "alice" / "matmul.cu") == "int x;\n");
      CHECK(read_text(dir.path / "out" / "alice" / "notes" / "readme.txt") == "hi");
      CHECK(unpacked->files == 2);
      CHECK(unpacked->bytes == 9);
    }
    SUBCASE("an absolute path is refused") {
      CHECK(refusal({{"/tmp/evil.cu", "x"}}, zip) == "the entry \"/tmp/evil.cu\" has an absolute path");
    }
    SUBCASE("a path climbing out with .. is refused") {
      CHECK(refusal({{"ok.cu", "x"}, {"sub/../../evil", "x"}}, zip) ==
            "the entry \"sub/../../evil\" points outside the archive (\"..\")");
    }
    SUBCASE("a link pointing outside is refused; one inside is left out") {
      CHECK(refusal({{"evil", "", Entry::symlink, "../../etc/passwd"}}, zip) ==
            "the link \"evil\" points outside the archive (to \"../../etc/passwd\")");
      CHECK(refusal({{"evil", "", Entry::symlink, "/etc"}}, zip) ==
            "the link \"evil\" points outside the archive (to \"/etc\")");
      TempFolder dir;
      make_archive(dir.path / "a", {{"a/real.cu", "int y;"}, {"a/alias.cu", "", Entry::symlink, "real.cu"}}, zip);
      auto unpacked = unpack_archive(dir.path / "a", dir.path / "out");
      REQUIRE_MESSAGE(unpacked.has_value(), unpacked.error().message);
      CHECK(unpacked->skipped_links == 1);
      CHECK(fs::exists(dir.path / "out" / "a" / "real.cu"));
      CHECK_FALSE(fs::exists(fs::symlink_status(dir.path / "out" / "a" / "alias.cu")));
    }
    SUBCASE("more entries than the limit") {
      UnpackLimits limits;
      limits.max_entries = 3;
      CHECK(refusal({{"1", "x"}, {"2", "x"}, {"3", "x"}, {"4", "x"}}, zip, limits) ==
            "the archive holds more than 3 entries");
    }
    SUBCASE("a zip bomb: more bytes than the limit, counted as they unpack") {
      UnpackLimits limits;
      limits.max_total_bytes = 1 << 20;
      limits.max_file_bytes = 4 << 20;
      CHECK(refusal({{"zeros", std::string(3 << 20, '\0')}}, zip, limits) == "the archive unpacks to more than 1 MiB");
      limits.max_file_bytes = 1 << 20;
      limits.max_total_bytes = 4 << 20;
      CHECK(refusal({{"zeros", std::string(3 << 20, '\0')}}, zip, limits) ==
            "the entry \"zeros\" unpacks to more than 1 MiB");
    }
    SUBCASE("names with any bytes unpack as they are: quotes, newlines, $(...), backticks, spaces") {
      TempFolder dir;
      const std::vector<std::string> names{"it's \"mine\".cu", "two\nlines.cu", "$(touch pwned).cu", "`id`.cu",
                                           "a b.cu", "caf\xc3\xa9.cu"};
      std::vector<Entry> entries;
      for (const auto& name : names) entries.push_back({name, "int x;"});
      make_archive(dir.path / "a", entries, zip);
      auto unpacked = unpack_archive(dir.path / "a", dir.path / "out");
      REQUIRE_MESSAGE(unpacked.has_value(), unpacked.error().message);
      for (const auto& name : names) CHECK(read_text(dir.path / "out" / name) == "int x;");
      CHECK_FALSE(fs::exists(dir.path / "out" / "pwned"));
    }
    SUBCASE("a second entry of the same name is refused, not written through") {
      CHECK(refusal({{"a.cu", "1"}, {"a.cu", "2"}}, zip).starts_with("cannot unpack \"a.cu\": File exists"));
    }
  }
  SUBCASE("a fifo or a device is refused") {
    CHECK(refusal({{"pipe", "", Entry::fifo}}, false) == "the entry \"pipe\" is a device, pipe or socket, not a file");
    CHECK(refusal({{"zero.cu", "", Entry::device}}, false) ==
          "the entry \"zero.cu\" is a device, pipe or socket, not a file");
  }
  SUBCASE("a hard link (tar; zip has none) is never made: pointing out it is refused, inside it is left out") {
    CHECK(refusal({{"evil", "", Entry::hardlink, "/etc/passwd"}}, false) ==
          "the link \"evil\" points outside the archive");
    CHECK(refusal({{"evil", "", Entry::hardlink, "../../secret"}}, false) ==
          "the link \"evil\" points outside the archive");
    TempFolder dir;
    make_archive(dir.path / "a", {{"real.cu", "int y;"}, {"twin.cu", "", Entry::hardlink, "real.cu"}}, false);
    auto unpacked = unpack_archive(dir.path / "a", dir.path / "out");
    REQUIRE_MESSAGE(unpacked.has_value(), unpacked.error().message);
    CHECK(unpacked->skipped_links == 1);
    CHECK_FALSE(fs::exists(fs::symlink_status(dir.path / "out" / "twin.cu")));
  }
  SUBCASE("a name that is not UTF-8 unpacks as its bytes, or is refused naming it") {
    TempFolder dir;
    make_archive(dir.path / "a", {{"caf\xe9.cu", "int x;"}}, false);
    auto unpacked = unpack_archive(dir.path / "a", dir.path / "out");
    if (unpacked) CHECK(read_text(dir.path / "out" / "caf\xe9.cu") == "int x;");
    else CHECK(unpacked.error().message.find("caf\\xe9.cu") != std::string::npos);
  }
  SUBCASE("an entry name past the file system's limit is refused, not truncated") {
    CHECK(refusal({{std::string(300, 'n') + ".cu", "int x;"}}, false).find("File name too long") != std::string::npos);
  }
  SUBCASE("the archive itself must be a regular file: not a link, not a pipe") {
    TempFolder dir;
    make_archive(dir.path / "real.zip", {{"a.cu", "int x;"}}, true);
    fs::create_symlink(dir.path / "real.zip", dir.path / "link.zip");
    auto linked = unpack_archive(dir.path / "link.zip", dir.path / "out");
    REQUIRE_FALSE(linked.has_value());
    CHECK(linked.error().message == "link.zip is a symbolic link, not a file: a submission is regular files only");
    REQUIRE(::mkfifo((dir.path / "pipe.zip").c_str(), 0600) == 0);
    auto piped = unpack_archive(dir.path / "pipe.zip", dir.path / "out2");
    REQUIRE_FALSE(piped.has_value());
    CHECK(piped.error().message == "pipe.zip is a named pipe (FIFO), not a file: a submission is regular files only");
  }
  SUBCASE("folders nested past the limit") {
    UnpackLimits limits;
    limits.max_depth = 2;
    CHECK(refusal({{"a/b/c.cu", "x"}}, true, limits) == "the entry \"a/b/c.cu\" is nested more than 2 folders deep");
  }
  SUBCASE("a damaged archive says so") {
    TempFolder dir;
    write_text(dir.path / "bad.zip", std::string(300, 'z'));
    auto unpacked = unpack_archive(dir.path / "bad.zip", dir.path / "out");
    REQUIRE_FALSE(unpacked.has_value());
    CHECK(unpacked.error().message.starts_with("cannot open the archive: "));
  }
}
