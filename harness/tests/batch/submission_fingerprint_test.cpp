// What identifies a submission's content (harness/src/batch/submission_fingerprint.cpp): a folder's
// files, an archive's bytes, an LMS's loose files with its mark or attempt; entries that are no
// data refused by what they are, never opened.
#include "batch/submission_fingerprint.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::fingerprint_submission") {
  TempFolder dir;
  const SubmissionSource alice{"alice", dir.path / "alice", SourceKind::folder};
  write_text(alice.path / "matmul.cu", "int a;");
  write_text(alice.path / "sub" / "helper.cu", "int b;");
  set_mtime(alice.path / "matmul.cu", 1700000000);
  set_mtime(alice.path / "sub" / "helper.cu", 1700000500);
  auto first = fingerprint_submission(alice);
  REQUIRE_MESSAGE(first.has_value(), first.error().message);
  CHECK(first->sha256.size() == 64);
  CHECK(first->bytes == 12);

  SUBCASE("the newest file's modification time is when it was handed in") {
    CHECK(first->submitted_unix == 1700000500);
  }
  SUBCASE("the same files give the same fingerprint, whatever their times") {
    set_mtime(alice.path / "matmul.cu", 1800000000);
    CHECK(fingerprint_submission(alice)->sha256 == first->sha256);
  }
  SUBCASE("a changed file, a renamed file or a new file change it") {
    write_text(alice.path / "matmul.cu", "int A;");
    CHECK(fingerprint_submission(alice)->sha256 != first->sha256);
    write_text(alice.path / "matmul.cu", "int a;");
    CHECK(fingerprint_submission(alice)->sha256 == first->sha256);
    fs::rename(alice.path / "sub" / "helper.cu", alice.path / "sub" / "other.cu");
    CHECK(fingerprint_submission(alice)->sha256 != first->sha256);
    fs::rename(alice.path / "sub" / "other.cu", alice.path / "sub" / "helper.cu");
    write_text(alice.path / "extra.txt", "");
    CHECK(fingerprint_submission(alice)->sha256 != first->sha256);
  }
  SUBCASE("an archive: its bytes and its own modification time") {
    const SubmissionSource bob{"bob", dir.path / "bob.zip", SourceKind::zip};
    write_text(bob.path, "PK fake");
    set_mtime(bob.path, 1700000123);
    auto print = fingerprint_submission(bob);
    REQUIRE(print.has_value());
    CHECK(print->sha256 == "7390d7adabc07c228f2fd7d8668399d3159cb210bc81098ab27a09cb21ee5b3b");
    CHECK(print->submitted_unix == 1700000123);
  }
  SUBCASE("a link, a pipe or a device in the folder is hashed by what it is, never opened") {
    fs::create_symlink("/dev/zero", alice.path / "zero.cu");
    REQUIRE(::mkfifo((alice.path / "pipe.cu").c_str(), 0600) == 0);
    const auto started = std::chrono::steady_clock::now();
    auto print = fingerprint_submission(alice);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
    REQUIRE_MESSAGE(print.has_value(), print.error().message);
    CHECK(print->sha256 != first->sha256);
    CHECK(print->bytes == 12);
  }
  SUBCASE("a submission that is itself a link is refused, naming it, and fingerprinted by its target") {
    fs::create_directory_symlink(alice.path, dir.path / "mallory");
    auto folder = fingerprint_submission({"mallory", dir.path / "mallory", SourceKind::folder});
    REQUIRE_MESSAGE(folder.has_value(), folder.error().message);
    CHECK(folder->refused ==
          "mallory is a symbolic link: a submission is regular files and folders only (copy it in with cp -rL)");
    CHECK(folder->bytes == 0);
    CHECK(folder->sha256 == fingerprint_submission({"mallory", dir.path / "mallory", SourceKind::folder})->sha256);
    fs::create_symlink("/dev/zero", dir.path / "oscar.zip");
    auto archive = fingerprint_submission({"oscar", dir.path / "oscar.zip", SourceKind::zip});
    REQUIRE(archive.has_value());
    CHECK(archive->refused ==
          "oscar.zip is a symbolic link: a submission is regular files and folders only (copy it in with cp -rL)");
    fs::remove(dir.path / "oscar.zip");
    fs::create_symlink("/dev/null", dir.path / "oscar.zip");
    CHECK(fingerprint_submission({"oscar", dir.path / "oscar.zip", SourceKind::zip})->sha256 != archive->sha256);
    CHECK(first->refused.empty());
  }
  SUBCASE("an archive name on a pipe is refused at once, not read") {
    REQUIRE(::mkfifo((dir.path / "peggy.zip").c_str(), 0600) == 0);
    const auto started = std::chrono::steady_clock::now();
    auto print = fingerprint_submission({"peggy", dir.path / "peggy.zip", SourceKind::zip});
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
    REQUIRE(print.has_value());
    CHECK(print->refused == "peggy.zip is a named pipe (FIFO), not a file: a submission is regular files only");
  }
  SUBCASE("a huge file is refused by its size, not read") {
    const fs::path big = alice.path / "video.mp4";
    { std::ofstream(big) << ""; }
    fs::resize_file(big, std::uint64_t{8} << 30);  // sparse: 8 GiB that take no disk
    auto print = fingerprint_submission(alice, std::uint64_t{1} << 20);
    REQUIRE_FALSE(print.has_value());
    CHECK(print.error().message == "the submission is larger than 1 MiB; is it the right folder?");
  }
  SUBCASE("past the size limit is an error") {
    auto print = fingerprint_submission(alice, 8);
    REQUIRE_FALSE(print.has_value());
    CHECK(print.error().message == "the submission is larger than 0 MiB; is it the right folder?");
  }
}

TEST_CASE("batch::fingerprint_submission of Canvas's files") {
  TempFolder dir;
  write_text(dir.path / "class" / "smithjohn_11_901_matmul.cu", "kernel");
  write_text(dir.path / "class" / "smithjohn_11_902_tiles.cuh", "header");
  auto listing = list_submissions(dir.path / "class");
  REQUIRE(listing.has_value());
  REQUIRE(listing->submissions.size() == 1);
  const SubmissionSource& john = listing->submissions[0];
  SUBCASE("the fingerprint follows the files' own names and contents and Canvas's mark, not Canvas's ids") {
    const auto first = fingerprint_submission(john);
    REQUIRE(first.has_value());
    CHECK(first->refused.empty());
    CHECK(first->bytes == 12);
    SubmissionSource renamed = john;
    renamed.files[1].name = "tile.cuh";
    CHECK(fingerprint_submission(renamed)->sha256 != first->sha256);
    SubmissionSource marked = john;
    marked.late = true;  // Canvas's mark changed (an extension granted, or taken back)
    CHECK(fingerprint_submission(marked)->sha256 != first->sha256);
    write_text(dir.path / "class" / "smithjohn_11_902_tiles.cuh", "header!");
    CHECK(fingerprint_submission(john)->sha256 != first->sha256);
  }
  SUBCASE("past the size limit: refused, as a folder would be") {
    const auto print = fingerprint_submission(john, 10);
    REQUIRE(print.has_value());
    CHECK(print->refused == "the submission is larger than 0 MiB; is it the right folder?");
  }
  SUBCASE("a link among them is refused, not followed") {
    fs::create_symlink("/etc/passwd", dir.path / "class" / "smithjohn_11_903_x.cu");
    SubmissionSource with_link = john;
    with_link.files.push_back({dir.path / "class" / "smithjohn_11_903_x.cu", "x.cu"});
    const auto print = fingerprint_submission(with_link);
    REQUIRE(print.has_value());
    CHECK(print->refused.starts_with("smithjohn_11_903_x.cu is a symbolic link"));
  }
}

TEST_CASE("batch::fingerprint_submission of Blackboard's files") {
  TempFolder dir;
  const std::string hw = "HW2 Matmul_";
  SUBCASE("the fingerprint follows the attempt: a new attempt of the same files is graded again") {
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_matmul.cu"), "same");
    auto listing = list_submissions(dir.path);
    REQUIRE(listing.has_value());
    REQUIRE(listing->submissions.size() == 1);
    const auto first = fingerprint_submission(listing->submissions[0]);
    REQUIRE(first.has_value());
    CHECK(first->refused.empty());
    SubmissionSource later = listing->submissions[0];
    later.attempt = "2026-11-29-10-00-00";
    CHECK(fingerprint_submission(later)->sha256 != first->sha256);
  }
}
