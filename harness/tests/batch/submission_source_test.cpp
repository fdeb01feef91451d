#include "batch/submission_source.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::list_submissions") {
  TempFolder dir;
  SUBCASE("folders and archives, by student id; clutter ignored; strays and doubles skipped") {
    fs::create_directories(dir.path / "carol");
    write_text(dir.path / "alice.zip", "z");
    write_text(dir.path / "bob.tar.gz", "t");
    write_text(dir.path / "dave.tgz", "t");
    fs::create_directories(dir.path / "erin");
    write_text(dir.path / "erin.zip", "z");
    write_text(dir.path / "notes.txt", "n");
    write_text(dir.path / ".DS_Store", "x");
    fs::create_directories(dir.path / "__MACOSX");
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    const std::vector<SubmissionSource> expected{{"alice", dir.path / "alice.zip", SourceKind::zip},
                                                 {"bob", dir.path / "bob.tar.gz", SourceKind::tar},
                                                 {"carol", dir.path / "carol", SourceKind::folder},
                                                 {"dave", dir.path / "dave.tgz", SourceKind::tar}};
    CHECK(listing->submissions == expected);
    CHECK(listing->skipped == std::vector<std::string>{
                                  "erin: 2 submissions (erin, erin.zip); keep one and run again",
                                  "notes.txt: not a folder or a .zip/.tar.gz archive"});
  }
  SUBCASE("a missing folder is an error") {
    auto listing = list_submissions(dir.path / "nope");
    REQUIRE_FALSE(listing.has_value());
    CHECK(listing.error().message == "the submissions folder " + (dir.path / "nope").string() +
                                         " does not exist or is not a folder");
  }
}

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
  SUBCASE("past the size limit is an error") {
    auto print = fingerprint_submission(alice, 8);
    REQUIRE_FALSE(print.has_value());
    CHECK(print.error().message == "the submission is larger than 0 MiB; is it the right folder?");
  }
}

TEST_CASE("batch::find_submission_files") {
  TempFolder dir;
  SUBCASE("a folder's .cu files in name order") {
    write_text(dir.path / "b.cu", "");
    write_text(dir.path / "a.cu", "");
    write_text(dir.path / "notes.txt", "");
    auto files = find_submission_files(dir.path);
    REQUIRE(files.has_value());
    CHECK(*files == std::vector<fs::path>{dir.path / "a.cu", dir.path / "b.cu"});
  }
  SUBCASE("lone wrapper folders are looked into") {
    write_text(dir.path / "alice" / "hw2" / "matmul.cu", "");
    fs::create_directories(dir.path / "__MACOSX");
    auto files = find_submission_files(dir.path);
    REQUIRE(files.has_value());
    CHECK(*files == std::vector<fs::path>{dir.path / "alice" / "hw2" / "matmul.cu"});
  }
  SUBCASE("an empty submission") {
    auto files = find_submission_files(dir.path);
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message == "the submission is empty");
  }
  SUBCASE("no .cu file: the error says what is there instead") {
    write_text(dir.path / "matmul.cpp", "");
    write_text(dir.path / "src" / "x.cu", "");
    write_text(dir.path / "other" / "y.cu", "");
    auto files = find_submission_files(dir.path);
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message == "the submission holds no .cu file (it holds matmul.cpp, other/, src/)");
  }
}
