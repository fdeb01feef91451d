// The late flag's time comes from the submission's own evidence, not from the copy's file times.
#include "batch/submission_time.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "process/fake_process_runner.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
/// A fresh folder for one test.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("cugrade-time-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

const SubmissionTime files_fallback{1800000000, "files"};
}  // namespace

TEST_CASE("batch::submission_time") {
  FakeProcessRunner processes;
  SUBCASE("a git repository: the last commit's time, asked of git without a shell, no pager, no signature check") {
    const fs::path root = fresh_dir("git");
    fs::create_directories(root / "alice" / ".git");
    write(root / "alice" / "vecadd.cu", "");
    processes.expect([](const ProcessRequest&) { return fake_exit(0, "2026-01-01T01:00:00+01:00\n"); });
    const std::string blob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";  // the empty file's
    processes.expect([blob](const ProcessRequest& r) {
      CHECK(std::find(r.argv.begin(), r.argv.end(), "ls-tree") != r.argv.end());
      return fake_exit(0, std::string("100644 blob ") + blob + "\tvecadd.cu" + '\0');
    });
    processes.expect([blob, root](const ProcessRequest& r) {
      CHECK(std::find(r.argv.begin(), r.argv.end(), "--no-filters") != r.argv.end());  // no filter of the student's runs
      CHECK(r.argv.back() == (root / "alice" / "vecadd.cu").string());
      return fake_exit(0, blob + "\n");
    });
    const SubmissionTime got = submission_time(processes, root, {root / "alice" / "vecadd.cu"}, files_fallback);
    CHECK(got.unix_seconds == 1767225600);
    CHECK(got.source == "git");
    REQUIRE(processes.requests().size() == 3);
    const auto& argv = processes.requests()[0].argv;
    CHECK(argv.front() == "git");
    CHECK(argv.back() == "--format=%cI");
    CHECK(std::find(argv.begin(), argv.end(), "--git-dir=" + (root / "alice" / ".git").string()) != argv.end());
    CHECK(std::find(argv.begin(), argv.end(), "log.showSignature=false") != argv.end());
    CHECK(std::find(argv.begin(), argv.end(), "--no-pager") != argv.end());
    CHECK(processes.requests()[0].environment.at("GIT_CONFIG_NOSYSTEM") == "1");
    fs::remove_all(root);
  }
  SUBCASE("git failing (not a repository after all) falls through to Gradescope's metadata beside submission/") {
    const fs::path root = fresh_dir("fallthrough");
    fs::create_directories(root / ".git");
    write(root / "submission" / "vecadd.cu", "");
    write(root / "submission_metadata.json", R"({"id": 1, "created_at": "2025-12-31T16:00:00.927183-08:00"})");
    processes.expect([](const ProcessRequest&) { return fake_exit(128, "", "fatal: not a git repository"); });
    const SubmissionTime got = submission_time(processes, root, {root / "submission" / "vecadd.cu"}, files_fallback);
    CHECK(got.unix_seconds == 1767225600);
    CHECK(got.source == "gradescope");
    fs::remove_all(root);
  }
  SUBCASE("metadata among the student's own files is theirs, and no evidence: beside the .cu files, in an archive") {
    const fs::path root = fresh_dir("forged");
    write(root / "vecadd.cu", "");
    write(root / "submission_metadata.json", R"({"created_at": "2026-01-01T00:00:00Z"})");
    CHECK(submission_time(processes, root, {root / "vecadd.cu"}, files_fallback).source == "files");
    write(root / "up" / "submission" / "vecadd.cu", "");
    write(root / "up" / "submission_metadata.json", R"({"created_at": "2026-01-01T00:00:00Z"})");
    const SubmissionTime unpacked{1800000000, "archive"};
    CHECK(submission_time(processes, root, {root / "up" / "submission" / "vecadd.cu"}, unpacked, true).source == "archive");
    CHECK(submission_time(processes, root, {root / "up" / "submission" / "vecadd.cu"}, files_fallback).source == "gradescope");
    fs::remove_all(root);
  }
  SUBCASE("a .git that is a link is not a repository: nothing is run") {
    const fs::path root = fresh_dir("link");
    fs::create_directories(root / "elsewhere");
    fs::create_directory_symlink(root / "elsewhere", root / ".git");
    const SubmissionTime got = submission_time(processes, root, {}, files_fallback);
    CHECK(got.source == "files");
    CHECK(processes.requests().empty());
    fs::remove_all(root);
  }
  SUBCASE("metadata without created_at, or malformed, is no evidence: the fallback") {
    const fs::path root = fresh_dir("bad-metadata");
    write(root / "submission" / "vecadd.cu", "");
    write(root / "submission_metadata.json", R"({"created_at": 5})");
    CHECK(submission_time(processes, root, {root / "submission" / "vecadd.cu"}, files_fallback).source == "files");
    write(root / "submission_metadata.json", "{not json");
    CHECK(submission_time(processes, root, {root / "submission" / "vecadd.cu"}, files_fallback).source == "files");
    fs::remove_all(root);
  }
  SUBCASE("a folder above the .cu files but not above the submission's root is not looked at") {
    const fs::path root = fresh_dir("outside");
    write(root / "class" / "submission_metadata.json", R"({"created_at": "2026-01-01T00:00:00Z"})");
    fs::create_directories(root / "class" / "submission");
    CHECK(submission_time(processes, root / "class" / "submission", {root / "class" / "submission" / "vecadd.cu"},
                          files_fallback).source ==
          "files");
    fs::remove_all(root);
  }
}

TEST_CASE("batch::submission_time (real git)") {
  if (std::system("git --version >/dev/null 2>&1") != 0) return;  // no git here: the fake covers it
  const fs::path root = fresh_dir("real-git");
  write(root / "bob" / "vecadd.cu", "// bob\n");
  const std::string bob = (root / "bob").string();
  const std::string commit =
      "cd '" + bob + "' && git init -q . && git add vecadd.cu && GIT_COMMITTER_DATE=2026-01-01T00:00:00Z "
      "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -c user.name=b -c user.email=b@x -c commit.gpgsign=false commit -q -m x";
  REQUIRE(std::system(commit.c_str()) == 0);
  auto processes = make_process_runner();
  const std::vector<fs::path> graded{root / "bob" / "vecadd.cu"};
  const SubmissionTime got = submission_time(*processes, root, graded, files_fallback);
  CHECK(got.source == "git");
  CHECK(got.unix_seconds == 1767225600);
  SUBCASE("a file edited after the commit: the commit's date is no evidence, the files' times are") {
    write(root / "bob" / "vecadd.cu", "// bob, edited after the deadline\n");
    CHECK(submission_time(*processes, root, graded, files_fallback).source == "files");
  }
  SUBCASE("a graded file never committed: likewise") {
    write(root / "bob" / "helper.cu", "// new\n");
    CHECK(submission_time(*processes, root, {root / "bob" / "helper.cu", root / "bob" / "vecadd.cu"}, files_fallback)
              .source == "files");
  }
  SUBCASE("a filter the student's repository declares never runs") {
    const fs::path marker = root / "filter-ran";
    std::ofstream(root / "bob" / ".git" / "config", std::ios::app)
        << "[filter \"evil\"]\n\tclean = touch " << marker.string() << "\n";
    std::ofstream(root / "bob" / ".gitattributes") << "* filter=evil\n";
    CHECK(submission_time(*processes, root, graded, files_fallback).source == "git");
    CHECK_FALSE(fs::exists(marker));
  }
  fs::remove_all(root);
}
