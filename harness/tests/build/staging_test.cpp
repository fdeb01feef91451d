// stage_submission(): only the submission's own files, under safe names, reach the build folder.
#include "build/staging.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A submission folder (with a hostile name), an assignment and a build folder.
struct StagingFixture {
  fs::path root;
  fs::path submission;
  fs::path assignment;
  fs::path build;
  StagingFixture() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-staging-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    submission = root / "alice $(touch pwned) `id`";
    assignment = root / "assignment";
    build = root / "build";
    write_file(assignment / "interface.cuh", "void vecadd(float*, int);\n");
    write_file(root / "reference" / "secret.cu", "// the instructor's solution\n");
    fs::create_directories(build);
  }
  ~StagingFixture() { fs::remove_all(root); }
  std::expected<Staging, StagingFailure> stage(const std::vector<std::string>& names) {
    std::vector<fs::path> sources;
    for (const auto& name : names) sources.push_back(submission / name);
    return stage_submission(sources, assignment, build);
  }
};

}  // namespace

TEST_CASE("build::stage_submission") {
  StagingFixture f;

  SUBCASE("sources under generated names, the student's headers under theirs, the assignment's interface") {
    write_file(f.submission / "vec add's.cu",
               "#include \"interface.cuh\"\n#include \"helpers.cuh\"\n#include <cuda_runtime.h>\n"
               "#include \"common/util.cuh\"\nvoid vecadd(float*, int) {}\n");
    write_file(f.submission / "helpers.cuh", "#pragma once\n#include \"common/util.cuh\"\n");
    write_file(f.submission / "common" / "util.cuh", "#pragma once\n#include \"more.cuh\"\n#include \"interface.cuh\"\n");
    write_file(f.submission / "common" / "more.cuh", "int more();\n");
    write_file(f.submission / "interface.cuh", "void vecadd(float*, int); void student_changed_it();\n");
    write_file(f.submission / "unrelated.cuh", "not included\n");
    write_file(f.submission / "second.cu", "int second() { return 2; }\n");
    const auto staged = f.stage({"vec add's.cu", "second.cu"});
    REQUIRE_MESSAGE(staged.has_value(), staged.error().message);
    REQUIRE(staged->sources.size() == 2);
    CHECK(staged->sources[0].staged == "src/submission_0.cu");
    CHECK(staged->sources[0].shown == "vec add's.cu");
    CHECK(staged->sources[1].staged == "src/submission_1.cu");
    std::vector<std::string> headers;
    for (const auto& h : staged->headers) headers.push_back(h.staged);
    CHECK(headers == std::vector<std::string>{"src/interface.cuh", "src/helpers.cuh", "src/common/util.cuh",
                                              "src/common/more.cuh"});
    CHECK(read(f.build / "src" / "interface.cuh") == "void vecadd(float*, int);\n");  // the assignment's
    CHECK(read(f.build / "src" / "submission_1.cu") == "int second() { return 2; }\n");
    CHECK_FALSE(fs::exists(f.build / "src" / "unrelated.cuh"));
    CHECK(staged->headers[2].shown == "common/util.cuh");
  }

  SUBCASE("an include leaving the submission is refused with its line") {
    write_file(f.submission / "vecadd.cu", "#include \"interface.cuh\"\n#include \"../reference/secret.cu\"\n");
    const auto staged = f.stage({"vecadd.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message ==
          "your file is refused before compiling: vecadd.cu:2: #include \"../reference/secret.cu\": includes "
          "must be your own files (next to your .cu file, named plainly: no absolute path, no ..) or system "
          "headers such as <cuda_runtime.h>");
    REQUIRE(staged.error().diagnostics.size() == 1);
    CHECK(staged.error().diagnostics[0].file == "vecadd.cu");
    CHECK(staged.error().diagnostics[0].line == 2);
  }

  SUBCASE("a refused construct in a header is found there") {
    write_file(f.submission / "vecadd.cu", "#include \"helpers.cuh\"\n");
    write_file(f.submission / "helpers.cuh", "\n\nasm(\".incbin \\\"/etc/passwd\\\"\");\n");
    const auto staged = f.stage({"vecadd.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message.starts_with("your file is refused before compiling: helpers.cuh:3: "));
  }

  SUBCASE("a header that is a symbolic link, or reached through one, is refused") {
    write_file(f.submission / "vecadd.cu", "#include \"helpers.cuh\"\n");
    fs::create_symlink(f.root / "reference" / "secret.cu", f.submission / "helpers.cuh");
    auto staged = f.stage({"vecadd.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message.find("symbolic link") != std::string::npos);
    fs::remove(f.submission / "helpers.cuh");
    write_file(f.submission / "vecadd.cu", "#include \"ref/secret.cu\"\n");
    fs::create_directory_symlink(f.root / "reference", f.submission / "ref");
    staged = f.stage({"vecadd.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message.find("symbolic link") != std::string::npos);
    CHECK_FALSE(fs::exists(f.build / "src" / "ref"));
  }

  SUBCASE("a submission file that is a FIFO, missing or empty") {
    fs::create_directories(f.submission);
    REQUIRE(::mkfifo((f.submission / "fifo.cu").c_str(), 0600) == 0);
    auto staged = f.stage({"fifo.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message.find("pipe") != std::string::npos);
    CHECK(f.stage({"missing.cu"}).error().message == "submission file missing.cu was not found");
    write_file(f.submission / "empty.cu", " \n\n");
    CHECK(f.stage({"empty.cu"}).error().message == "submission file empty.cu is empty");
  }

  SUBCASE("two different headers under one name") {
    write_file(f.submission / "a" / "x.cu", "#include \"h.cuh\"\n");
    write_file(f.submission / "a" / "h.cuh", "int a;\n");
    write_file(f.submission / "b" / "y.cu", "#include \"h.cuh\"\n");
    write_file(f.submission / "b" / "h.cuh", "int b;\n");
    const auto staged = f.stage({"a/x.cu", "b/y.cu"});
    REQUIRE_FALSE(staged.has_value());
    CHECK(staged.error().message.find("distinct names") != std::string::npos);
  }

  SUBCASE("staging again replaces what was there") {
    write_file(f.submission / "vecadd.cu", "int x;\n");
    write_file(f.build / "src" / "leftover.cuh", "old\n");
    REQUIRE(f.stage({"vecadd.cu"}).has_value());
    CHECK_FALSE(fs::exists(f.build / "src" / "leftover.cuh"));
  }
}
