// What `cugrade check -s` and `cugrade grade` take as a submission: regular .cu files within the
// spec's limits, whatever their names; anything else refused at once with a message.
#include "pipeline/submission_files.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
struct Scratch {
  fs::path dir;
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-submission-files-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
  }
  ~Scratch() { fs::remove_all(dir); }
  fs::path write(const fs::path& relative, const std::string& text) const {
    fs::create_directories((dir / relative).parent_path());
    std::ofstream(dir / relative, std::ios::binary) << text;
    return dir / relative;
  }
};

std::string refusal(const std::vector<std::string>& given, const Limits& limits = {}, const fs::path& from = {}) {
  auto files = submission_files(given, limits, from);
  REQUIRE_FALSE(files.has_value());
  return files.error().message;
}
}  // namespace

TEST_CASE("pipeline::submission_files") {
  Scratch s;
  SUBCASE("files as given, a folder's .cu files in name order; sub-folders are not looked into") {
    s.write("hw/b.cu", "int b;");
    s.write("hw/a.cu", "int a;");
    s.write("hw/notes.txt", "");
    fs::create_directories(s.dir / "hw" / "old.cu");
    s.write("one.cu", "int c;");
    auto files = submission_files({(s.dir / "hw").string(), (s.dir / "one.cu").string()});
    REQUIRE_MESSAGE(files.has_value(), files.error().message);
    CHECK(*files == std::vector<fs::path>{s.dir / "hw" / "a.cu", s.dir / "hw" / "b.cu", s.dir / "one.cu"});
  }
  SUBCASE("names with any bytes are data: quotes, newlines, $(...), backticks, non-UTF-8, 255 bytes") {
    const std::vector<std::string> names{"it's \"mine\".cu", "two\nlines.cu", "$(touch pwned).cu", "`id`.cu",
                                         "caf\xe9.cu", std::string(252, 'n') + ".cu", "-rf.cu"};
    for (const auto& name : names) s.write(fs::path("hw") / name, "int x;");
    auto files = submission_files({(s.dir / "hw").string()});
    REQUIRE_MESSAGE(files.has_value(), files.error().message);
    CHECK(files->size() == names.size());
    CHECK_FALSE(fs::exists(s.dir / "hw" / "pwned"));
    CHECK_FALSE(fs::exists("pwned"));
  }
  SUBCASE("a named pipe is refused at once (it would block the build forever)") {
    s.write("hw/good.cu", "int x;");
    REQUIRE(::mkfifo((s.dir / "hw" / "pipe.cu").c_str(), 0600) == 0);
    const auto started = std::chrono::steady_clock::now();
    CHECK(refusal({(s.dir / "hw").string()}, {}, s.dir) ==
          "submission file hw/pipe.cu is a named pipe (FIFO), not a file: a submission is regular files only");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  }
  SUBCASE("a symbolic link is refused, in a folder or given: to a secret, to /dev/zero") {
    s.write("secret.txt", "course secret");
    fs::create_directories(s.dir / "hw");
    fs::create_symlink(s.dir / "secret.txt", s.dir / "hw" / "leak.cu");
    CHECK(refusal({(s.dir / "hw").string()}, {}, s.dir) ==
          "submission file hw/leak.cu is a symbolic link, not a file: a submission is regular files only");
    fs::create_symlink("/dev/zero", s.dir / "zero.cu");
    CHECK(refusal({(s.dir / "zero.cu").string()}, {}, s.dir) ==
          "submission file zero.cu is a symbolic link, not a file: a submission is regular files only");
  }
  SUBCASE("a device given as a file is refused") {
    CHECK(refusal({"/dev/zero"}) == "submission file /dev/zero is a device, not a file: a submission is regular files only");
  }
  SUBCASE("a folder given through a link is the user's choice: its files are still checked") {
    s.write("real/a.cu", "int a;");
    fs::create_directory_symlink(s.dir / "real", s.dir / "linked");
    auto files = submission_files({(s.dir / "linked").string()});
    REQUIRE_MESSAGE(files.has_value(), files.error().message);
    CHECK(files->size() == 1);
  }
  SUBCASE("the size limits of the spec: per file and all together") {
    s.write("hw/a.cu", std::string(3000, 'a'));
    s.write("hw/b.cu", std::string(3000, 'b'));
    Limits limits;
    limits.submission_file_bytes = 2048;
    CHECK(refusal({(s.dir / "hw").string()}, limits, s.dir) == "submission file hw/a.cu is larger than 2 KiB");
    limits.submission_file_bytes = 4096;
    limits.submission_bytes = 5 * 1024;
    CHECK(refusal({(s.dir / "hw").string()}, limits, s.dir) == "the submission's files are larger than 5 KiB together");
    limits.submission_bytes = 6000;
    CHECK(submission_files({(s.dir / "hw").string()}, limits).has_value());
  }
  SUBCASE("a name that would break a message is shown on one line") {
    fs::create_directories(s.dir / "hw");
    fs::create_symlink("/etc/passwd", s.dir / "hw" / "a\nb\x1b.cu");
    CHECK(refusal({(s.dir / "hw").string()}, {}, s.dir) ==
          "submission file hw/a\\nb\\x1b.cu is a symbolic link, not a file: a submission is regular files only");
  }
  SUBCASE("a missing file and a folder without .cu files say so") {
    CHECK(refusal({(s.dir / "nope.cu").string()}, {}, s.dir) == "submission file nope.cu does not exist");
    fs::create_directories(s.dir / "empty");
    CHECK(refusal({(s.dir / "empty").string()}, {}, s.dir) == "the folder empty holds no .cu file");
  }
}

TEST_CASE("pipeline::list_submission_files") {
  Scratch s;
  SUBCASE("names only: a pipe or a link is listed (with its name as shown), not opened") {
    s.write("hw/a.cu", "int a;");
    REQUIRE(::mkfifo((s.dir / "hw" / "b.cu").c_str(), 0600) == 0);
    fs::create_symlink("/dev/zero", s.dir / "hw" / "c.cu");
    auto files = list_submission_files({(s.dir / "hw").string()}, s.dir);
    REQUIRE_MESSAGE(files.has_value(), files.error().message);
    REQUIRE(files->size() == 3);
    CHECK((*files)[0].path == s.dir / "hw" / "a.cu");
    CHECK((*files)[1].shown == "hw/b.cu");
    CHECK((*files)[2].shown == "hw/c.cu");
  }
  SUBCASE("a dangling link given is listed (and refused later), not called missing") {
    fs::create_symlink(s.dir / "gone", s.dir / "dangling.cu");
    auto files = list_submission_files({(s.dir / "dangling.cu").string()});
    REQUIRE(files.has_value());
    CHECK(check_submission_files(*files, {}).error().message.find("is a symbolic link") != std::string::npos);
  }
}

TEST_CASE("pipeline::check_submission_files") {
  Scratch s;
  const SubmissionFile good{s.write("a.cu", "int a;"), "a.cu"};
  CHECK(check_submission_files({good}, {}).has_value());
  REQUIRE(::mkfifo((s.dir / "p.cu").c_str(), 0600) == 0);
  const auto refused = check_submission_files({good, {s.dir / "p.cu", "p.cu"}}, {});
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "submission file p.cu is a named pipe (FIFO), not a file: a submission is regular files only");
}
