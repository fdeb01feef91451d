#pragma once
// The build tests' fixture: a student's vecadd submission, an assignment folder and an empty work
// folder under a fresh directory, and the request build_submission_cuda() gets for them.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "build/build_submission_cuda.hpp"
#include "build/test_data.hpp"
#include "process/fake_process_runner.hpp"

namespace cugrade::test {

namespace fs = std::filesystem;

inline const char* const vecadd_source =
    "#include \"interface.cuh\"\n"
    "__global__ void k(const float* a, const float* b, float* c, int n) {}\n"
    "void vecadd(const float* a, const float* b, float* c, int n) { k<<<1, 1>>>(a, b, c, n); }\n";

inline void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A submission, an assignment folder and an empty work folder under a fresh directory.
struct BuildFixture {
  fs::path root;
  BuildRequest request;

  BuildFixture() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-build-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    fs::create_directories(root / "submission");
    fs::create_directories(root / "assignment");
    fs::create_directories(root / "work");
    write_file(root / "assignment" / "interface.cuh",
               "void vecadd(const float* a, const float* b, float* c, int n);\n");
    write_file(root / "submission" / "vecadd.cu", vecadd_source);
    request.sources = {root / "submission" / "vecadd.cu"};
    request.assignment = "vecadd";
    request.assignment_dir = root / "assignment";
    request.work_dir = root / "work";
    request.arch = "sm_90";
    request.compiler = "/opt/cuda/bin/nvcc";
    request.runner_library = "/opt/cugrade/lib/librunner_vecadd.a";
    request.timeout_s = 60.0;
    request.environment = {{"PATH", "/opt/cuda/bin:/usr/bin:/bin"}};
    request.sealed = true;  // the scripted runner records the sandbox each step asks for
  }
  ~BuildFixture() { fs::remove_all(root); }
};

/// The argument after `flag` in argv, or "".
inline std::string after(const std::vector<std::string>& argv, const std::string& flag) {
  const auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
}

/// A fake nvcc that succeeds and writes what it was asked to: the object (or the runner), the
/// dependency list (-MF) and the assembler's (--MD), listing `dependencies`.
inline FakeProcessRunner::Handler nvcc_writes_output(std::string dependencies = "src/submission_0.cu /usr/include/stdio.h") {
  return [dependencies](const ProcessRequest& request) {
    const fs::path in = request.working_dir;
    const auto& argv = request.argv;
    write_file(in / after(argv, "-o"), "fake binary");
    if (const std::string deps = after(argv, "-MF"); !deps.empty())
      write_file(in / deps, "obj/x.o: " + dependencies + "\n");
    if (auto md = std::find(argv.begin(), argv.end(), "--MD"); md != argv.end() && argv.end() - md > 4)
      write_file(in / *(md + 4), "obj/x.o: tmp/cc1.s\n");
    return fake_exit(0);
  };
}

/// A fake nm listing the given symbols.
inline FakeProcessRunner::Handler nm_lists(std::string symbols) {
  return [symbols](const ProcessRequest& request) {
    CHECK(request.argv.front() == "nm");
    return fake_exit(0, symbols);
  };
}

/// A fake objcopy (or ld -r) writing its output, the last argument (or the one after -o).
inline ProcessResult tool_writes_output(const ProcessRequest& request) {
  const std::string out = request.argv.front() == "ld" ? after(request.argv, "-o") : request.argv.back();
  write_file(fs::path(request.working_dir) / out, "sealed");
  return fake_exit(0);
}

inline const char* const clean_symbols =
    "0000000000000010 T _Z1kPKfS0_Pfi\n"
    "0000000000000280 T _Z6vecaddPKfS0_Pfi\n"
    "                 U cudaMalloc\n";

/// nvcc failing with the given compiler or linker output on stderr.
inline FakeProcessRunner::Handler nvcc_fails(std::string output) {
  return [output](const ProcessRequest&) { return fake_exit(1, "", output); };
}

}  // namespace cugrade::test
