#include "batch/submission_source.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>

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
  SUBCASE("links are students' entries all the same (refused later, as their result); pipes are skipped") {
    fs::create_directories(dir.path / "real");
    fs::create_directory_symlink(dir.path / "real", dir.path / "mallory");
    fs::create_symlink("/dev/zero", dir.path / "oscar.zip");
    REQUIRE(::mkfifo((dir.path / "pipe").c_str(), 0600) == 0);
    REQUIRE(::mkfifo((dir.path / "peggy.zip").c_str(), 0600) == 0);
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    const std::vector<SubmissionSource> expected{{"mallory", dir.path / "mallory", SourceKind::folder},
                                                 {"oscar", dir.path / "oscar.zip", SourceKind::zip},
                                                 {"peggy", dir.path / "peggy.zip", SourceKind::zip},
                                                 {"real", dir.path / "real", SourceKind::folder}};
    CHECK(listing->submissions == expected);
    CHECK(listing->skipped == std::vector<std::string>{"pipe: not a folder or a .zip/.tar.gz archive"});
  }
  SUBCASE("ids with any bytes are listed as they are") {
    const std::vector<std::string> ids{"o'brien \"x\"", "two\nlines", "$(touch pwned)", "`id`", "\xff\xfe",
                                       std::string(255, 'l')};
    for (const auto& id : ids) fs::create_directories(dir.path / id);
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    std::vector<std::string> listed;
    for (const auto& s : listing->submissions) listed.push_back(s.student);
    std::vector<std::string> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    CHECK(listed == sorted);
  }
  SUBCASE("a missing folder is an error") {
    auto listing = list_submissions(dir.path / "nope");
    REQUIRE_FALSE(listing.has_value());
    CHECK(listing.error().message == "the submissions folder " + (dir.path / "nope").string() +
                                         " does not exist or is not a folder");
  }
  SUBCASE("an LMS's download given still zipped: unzip it first") {
    write_text(dir.path / "submissions.zip", "PK");
    auto listing = list_submissions(dir.path / "submissions.zip");
    REQUIRE_FALSE(listing.has_value());
    CHECK(listing.error().message.ends_with("submissions.zip is an archive: unzip it into a folder and give that "
                                            "(an LMS's download of every submission, Canvas's, Blackboard's or Moodle's, is unzipped so)"));
  }
}

TEST_CASE("batch::no_submission_message") {
  TempFolder dir;
  // The message for the folder as it is now.
  const auto message_now = [&] {
    auto listing = list_submissions(dir.path);
    REQUIRE(listing.has_value());
    return no_submission_message(dir.path, *listing, "matmul");
  };
  SUBCASE("an empty folder: what a submission is") {
    CHECK(message_now() == "no submission in " + dir.path.string() +
                               ": each student's submission is a sub-folder or a .zip, .tar.gz, .tgz or .tar archive "
                               "there, named by the student's id");
  }
  SUBCASE("one student's folder given as the class's: how to check it instead") {
    write_text(dir.path / "matmul.cu", "// mine");
    write_text(dir.path / "helpers.cu", "// mine too");
    write_text(dir.path / "notes.txt", "n");
    CHECK(message_now().ends_with("; it holds 2 .cu files itself, as one submission does: `cugrade check matmul -s " +
                                  dir.path.string() + "` grades it"));
  }
  SUBCASE("Moodle's download without folders: how to download it in folders, never `check` on the class") {
    write_text(dir.path / "Jane Doe_1234_assignsubmission_file_matmul.cu", "// hers");
    write_text(dir.path / "John Smith_1240_assignsubmission_file_matmul.cu", "// his");
    write_text(dir.path / "John Smith_1240_assignsubmission_onlinetext_onlinetext.html", "<p>notes</p>");
    const std::string message = message_now();
    CHECK(message.ends_with("; its files are named as Moodle's download without a folder per student names them "
                            "(\"<full name>_<id>_assignsubmission_file_<name>\"), which is not read: download the "
                            "submissions again with \"Download submissions in folders\" ticked (Moodle's default), "
                            "which gives each student a folder"));
    CHECK(message.find("cugrade check") == std::string::npos);
    SUBCASE("one file named otherwise among them: one student's folder after all") {
      write_text(dir.path / "helpers.cu", "// mine");
      CHECK(message_now().find("Moodle") == std::string::npos);
    }
  }
  SUBCASE("only other files: how many were skipped") {
    write_text(dir.path / "notes.txt", "n");
    CHECK(message_now().ends_with("named by the student's id (1 other entry skipped)"));
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
  SUBCASE("Gradescope's layout: the files in submission/, its metadata beside") {
    write_text(dir.path / "submission" / "matmul.cu", "");
    write_text(dir.path / "submission_metadata.json", "{}");
    auto files = find_submission_files(dir.path);
    REQUIRE(files.has_value());
    CHECK(*files == std::vector<fs::path>{dir.path / "submission" / "matmul.cu"});
  }
  SUBCASE("an empty submission") {
    auto files = find_submission_files(dir.path);
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message == "the submission is empty");
  }
  SUBCASE("a link is not looked into, not even as the lone wrapper folder") {
    write_text(dir.path / "elsewhere" / "x.cu", "");
    fs::create_directories(dir.path / "sub");
    fs::create_directory_symlink(dir.path / "elsewhere", dir.path / "sub" / "hw");
    auto files = find_submission_files(dir.path / "sub");
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message == "the submission holds no .cu file (it holds hw)");
  }
  SUBCASE("a .cu that is a link or a pipe: the student's result names it, relative to the submission") {
    write_text(dir.path / "bob" / "good.cu", "int x;");
    fs::create_symlink("/etc/passwd", dir.path / "bob" / "leak.cu");
    auto files = find_submission_files(dir.path);
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message ==
          "submission file bob/leak.cu is a symbolic link, not a file: a submission is regular files only");
  }
  SUBCASE("the spec's size limit") {
    write_text(dir.path / "big.cu", std::string(4096, 'x'));
    Limits limits;
    limits.submission_file_bytes = 1024;
    auto files = find_submission_files(dir.path, limits);
    REQUIRE_FALSE(files.has_value());
    CHECK(files.error().message == "submission file big.cu is larger than 1 KiB");
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

TEST_CASE("batch::lone_archive") {
  TempFolder dir;
  SUBCASE("a folder holding only an uploaded archive (Moodle's download): that archive") {
    write_text(dir.path / "alice_123_assignsubmission_file_" / "hw1.zip", "PK");
    fs::create_directories(dir.path / "__MACOSX");
    write_text(dir.path / ".DS_Store", "");
    CHECK(lone_archive(dir.path) == dir.path / "alice_123_assignsubmission_file_" / "hw1.zip");
  }
  SUBCASE("each kind of archive, beside Gradescope's metadata") {
    for (const std::string name : {"hw.tar.gz", "hw.tgz", "hw.tar"}) {
      const fs::path folder = dir.path / name;
      write_text(folder / name, "");
      write_text(folder / "submission_metadata.json", "{}");
      CHECK(lone_archive(folder) == folder / name);
    }
  }
  SUBCASE("not where there is anything else: .cu files, a second archive, another file") {
    write_text(dir.path / "a" / "hw.zip", "");
    write_text(dir.path / "a" / "vecadd.cu", "");
    write_text(dir.path / "b" / "hw.zip", "");
    write_text(dir.path / "b" / "hw2.zip", "");
    write_text(dir.path / "c" / "hw.zip", "");
    write_text(dir.path / "c" / "README.txt", "");
    for (const char* folder : {"a", "b", "c"}) CHECK_FALSE(lone_archive(dir.path / folder).has_value());
  }
  SUBCASE("not a link named like an archive, nor a file that is not one by its name") {
    fs::create_directories(dir.path / "a");
    fs::create_symlink("/dev/zero", dir.path / "a" / "hw.zip");
    write_text(dir.path / "b" / "hw.rar", "");
    CHECK_FALSE(lone_archive(dir.path / "a").has_value());
    CHECK_FALSE(lone_archive(dir.path / "b").has_value());
    CHECK_FALSE(lone_archive(dir.path / "empty").has_value());
  }
}

namespace {

/// The listing of an LMS's download in `dir`, with a .DS_Store and the batch's own output folder
/// ("grades", not a student's) beside its files: it must hold `count` submissions.
SubmissionListing listed_download(const fs::path& dir, std::size_t count) {
  write_text(dir / ".DS_Store", "");
  fs::create_directories(dir / "grades");
  auto listing = list_submissions(dir, dir / "grades");
  REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
  REQUIRE(listing->submissions.size() == count);
  return *listing;
}

}  // namespace

TEST_CASE("batch::list_submissions of Canvas's download") {
  TempFolder dir;
  SUBCASE("each student's files together, by name and user id; late where any of its names says so") {
    write_text(dir.path / "smithjohn_11_901_matmul.cu", "a");
    write_text(dir.path / "smithjohn_11_902_tiles.cuh", "b");
    write_text(dir.path / "doejane_late_12_903_hw1.zip", "c");
    write_text(dir.path / "doejane_late_12_text.html", "<p>see my zip</p>");
    const SubmissionListing listing = listed_download(dir.path, 2);
    const SubmissionSource& jane = listing.submissions[0];
    CHECK(jane.student == "doejane_12");
    CHECK(jane.kind == SourceKind::canvas);
    CHECK(jane.late);
    CHECK(jane.files == std::vector<LooseFile>{{dir.path / "doejane_late_12_903_hw1.zip", "hw1.zip"},
                                               {dir.path / "doejane_late_12_text.html", "text.html"}});
    const SubmissionSource& john = listing.submissions[1];
    CHECK(john.student == "smithjohn_11");
    CHECK_FALSE(john.late);
    CHECK(john.path == dir.path / "smithjohn_11_901_matmul.cu");
    CHECK(john.files == std::vector<LooseFile>{{dir.path / "smithjohn_11_901_matmul.cu", "matmul.cu"},
                                               {dir.path / "smithjohn_11_902_tiles.cuh", "tiles.cuh"}});
    CHECK(listing.skipped == std::vector<std::string>{"grades: the output folder"});
  }
  SUBCASE("not Canvas's where anything else is there: a folder, or a file named otherwise") {
    write_text(dir.path / "smithjohn_11_901_matmul.cu", "a");
    write_text(dir.path / "lab_1_2_alice.zip", "z");
    fs::create_directories(dir.path / "bob");
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    const std::vector<SubmissionSource> expected{{"bob", dir.path / "bob", SourceKind::folder, {}, false, {}},
                                                 {"lab_1_2_alice", dir.path / "lab_1_2_alice.zip", SourceKind::zip, {}, false, {}}};
    CHECK(listing->submissions == expected);
    REQUIRE(listing->skipped.size() == 1);
    CHECK(listing->skipped[0].starts_with("smithjohn_11_901_matmul.cu: named as in Canvas's download, but "));
  }
  SUBCASE("a TA's note beside Canvas's files: no submission, and the message names what to move out") {
    write_text(dir.path / "smithjohn_11_901_matmul.cu", "a");
    write_text(dir.path / "doejane_12_902_matmul.cu", "a");
    write_text(dir.path / "README.txt", "graded by me");
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    CHECK(listing->submissions.empty());
    CHECK(listing->skipped == std::vector<std::string>{
                                  "README.txt: not a folder or a .zip/.tar.gz archive",
                                  "doejane_12_902_matmul.cu: named as in Canvas's download, but README.txt is there too",
                                  "smithjohn_11_901_matmul.cu: named as in Canvas's download, but README.txt is there too"});
    CHECK(no_submission_message(dir.path, *listing, "matmul")
              .ends_with("; 2 files are named as in Canvas's download, which is read as such only where nothing else "
                         "is there: move README.txt out"));
  }
}

TEST_CASE("batch::list_submissions of Blackboard's download") {
  TempFolder dir;
  const std::string hw = "HW2 Matmul_";
  SUBCASE("each student's last attempt, its files by their own names; its text file not one of them") {
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-27-09-00-00_matmul.cu"), "old");
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-27-09-00-00.txt"), "Name: John Smith (jsmith)\n");
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_matmul.cu"), "new");
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_tiles.cuh"), "header");
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00.txt"),
               "Name: John Smith (jsmith)\nAssignment: HW2 Matmul\n");
    write_text(dir.path / (hw + "a_doe_attempt_2026-11-26-08-30-00_hw.zip"), "zip");
    write_text(dir.path / (hw + "a_doe_attempt_2026-11-26-08-30-00.txt"), "Name: Ann Doe (a_doe)\n");
    write_text(dir.path / (hw + "zed_attempt_2026-11-29-01-00-00.txt"), "Name: Zed (zed)\nSubmission Field:\nsee text\n");
    const SubmissionListing listing = listed_download(dir.path, 3);
    const SubmissionSource& ann = listing.submissions[0];
    CHECK(ann.student == "a_doe");  // the user name whole, by the assignment's name in jsmith's text file
    CHECK(ann.kind == SourceKind::blackboard);
    CHECK(ann.attempt == "2026-11-26-08-30-00");
    CHECK(ann.files == std::vector<LooseFile>{{dir.path / (hw + "a_doe_attempt_2026-11-26-08-30-00_hw.zip"), "hw.zip"}});
    const SubmissionSource& john = listing.submissions[1];
    CHECK(john.student == "jsmith");
    CHECK(john.attempt == "2026-11-28-10-00-00");
    CHECK(john.path == dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_matmul.cu"));
    CHECK(john.files ==
          std::vector<LooseFile>{{dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_matmul.cu"), "matmul.cu"},
                                 {dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_tiles.cuh"), "tiles.cuh"}});
    // An attempt of text alone: the student is listed, with nothing to grade.
    const SubmissionSource& zed = listing.submissions[2];
    CHECK(zed.student == "zed");
    CHECK(zed.files.empty());
    CHECK(zed.path == dir.path / (hw + "zed_attempt_2026-11-29-01-00-00.txt"));
    CHECK(listing.skipped ==
          std::vector<std::string>{"grades: the output folder",
                                   "jsmith: attempt 2026-11-27-09-00-00 not graded, an earlier one than the attempt "
                                   "2026-11-28-10-00-00 (Blackboard's download: each student's last attempt is graded)"});
  }
  SUBCASE("not Blackboard's where anything else is there: the message names what to move out") {
    write_text(dir.path / (hw + "jsmith_attempt_2026-11-28-10-00-00_matmul.cu"), "a");
    write_text(dir.path / "README.txt", "graded by me");
    auto listing = list_submissions(dir.path);
    REQUIRE_MESSAGE(listing.has_value(), listing.error().message);
    CHECK(listing->submissions.empty());
    CHECK(listing->skipped ==
          std::vector<std::string>{"HW2 Matmul_jsmith_attempt_2026-11-28-10-00-00_matmul.cu: named as in Blackboard's "
                                   "download, but README.txt is there too",
                                   "README.txt: not a folder or a .zip/.tar.gz archive"});
    CHECK(no_submission_message(dir.path, *listing, "matmul")
              .ends_with("; 1 file is named as in Blackboard's download, which is read as such only where nothing "
                         "else is there: move README.txt out"));
  }
}
