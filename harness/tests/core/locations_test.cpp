#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/locations.hpp"
#include "core/work_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
/// Sets an environment variable for one scope, and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};
}  // namespace

TEST_CASE("core::default_locations finds nvcc by its real path") {
  const fs::path base = make_work_dir({}, "cugrade-test-");
  // A toolkit reached through a link, as /usr/local/cuda -> /usr/local/cuda-13.0.
  fs::create_directories(base / "cuda-13.0" / "bin");
  const fs::path nvcc = base / "cuda-13.0" / "bin" / "nvcc";
  std::ofstream(nvcc) << "#!/bin/sh\n";
  fs::permissions(nvcc, fs::perms::owner_all);
  fs::create_directory_symlink(base / "cuda-13.0", base / "cuda");
  const fs::path real = fs::canonical(nvcc);

  SUBCASE("a bare name is looked up on PATH: the toolkit's headers are found from it") {
    ScopedEnv path("PATH", "/nonexistent:" + (base / "cuda" / "bin").string());
    ScopedEnv name("CUGRADE_NVCC", "nvcc");
    CHECK(default_locations().nvcc == real);
  }
  SUBCASE("a path through a link is followed") {
    ScopedEnv name("CUGRADE_NVCC", (base / "cuda" / "bin" / "nvcc").string());
    CHECK(default_locations().nvcc == real);
  }
  SUBCASE("a bare name not on PATH stays a name (nvcc_version then says it is missing)") {
    ScopedEnv path("PATH", "/nonexistent");
    ScopedEnv name("CUGRADE_NVCC", "nvcc");
    CHECK(default_locations().nvcc == "nvcc");
  }
  fs::remove_all(base);
}

TEST_CASE("core::installed_layout") {
  const fs::path prefix = make_work_dir({}, "cugrade-test-");
  fs::create_directories(prefix / "bin");
  SUBCASE("a program with share/cugrade/assignments beside its bin/ is installed") {
    fs::create_directories(prefix / "share" / "cugrade" / "assignments");
    const auto layout = installed_layout(prefix / "bin" / "cugrade");
    REQUIRE(layout.has_value());
    CHECK(layout->data_dir == prefix / "share" / "cugrade");
    CHECK(layout->lib_dir == prefix / "lib" / "cugrade");
  }
  SUBCASE("a program without it (a build tree's) is not") {
    fs::create_directories(prefix / "share" / "cugrade");  // no assignments/: not cugrade's data
    CHECK_FALSE(installed_layout(prefix / "bin" / "cugrade").has_value());
  }
  SUBCASE("an empty or relative path names no installation") {
    CHECK_FALSE(installed_layout({}).has_value());
    CHECK_FALSE(installed_layout("bin/cugrade").has_value());
  }
  fs::remove_all(prefix);
}

TEST_CASE("core::locations_for_program") {
  const fs::path prefix = make_work_dir({}, "cugrade-test-");
  fs::create_directories(prefix / "share" / "cugrade" / "assignments");
  const fs::path program = prefix / "bin" / "cugrade";
  for (const char* name : {"CUGRADE_ROOT", "CUGRADE_RUNNER_DIR", "CUGRADE_CPU_RUNNER_DIR", "CUGRADE_CPU_INCLUDE"})
    ::unsetenv(name);

  SUBCASE("installed: everything beside the program") {
    const Locations where = locations_for_program(program);
    CHECK(where.installed);
    CHECK(where.root == prefix / "share" / "cugrade");
    CHECK(where.assignments() == prefix / "share" / "cugrade" / "assignments");
    CHECK(where.runner_dir == prefix / "lib" / "cugrade" / "runners");
    CHECK(where.cpu_runner_dir == prefix / "lib" / "cugrade" / "cpu-runners");
    CHECK(where.cpu_include == prefix / "share" / "cugrade" / "cpu-include");
    CHECK(where.found_by == "installed beside " + program.string());
  }
  SUBCASE("installed: nvcc from PATH, not the path of the machine that built the package") {
    fs::create_directories(prefix / "toolkit" / "bin");
    const fs::path nvcc = prefix / "toolkit" / "bin" / "nvcc";
    std::ofstream(nvcc) << "#!/bin/sh\n";
    fs::permissions(nvcc, fs::perms::owner_all);
    ScopedEnv path("PATH", (prefix / "toolkit" / "bin").string());
    ScopedEnv unset("CUGRADE_NVCC", "");  // empty: not set
    CHECK(locations_for_program(program).nvcc == fs::canonical(nvcc));
  }
  SUBCASE("installed, with the environment's overrides kept") {
    ScopedEnv root("CUGRADE_ROOT", "/elsewhere/root");
    ScopedEnv runners("CUGRADE_RUNNER_DIR", "/elsewhere/build/runners");
    const Locations where = locations_for_program(program);
    CHECK(where.root == "/elsewhere/root");
    CHECK(where.runner_dir == "/elsewhere/build/runners");
    CHECK(where.cpu_runner_dir == "/elsewhere/build/cpu-runners");
    CHECK(where.found_by == "installed beside " + program.string() + " (moved by $CUGRADE_ROOT, $CUGRADE_RUNNER_DIR)");
  }
  SUBCASE("a build tree's program: the compiled-in paths of this build") {
    const Locations where = locations_for_program(prefix / "build" / "harness" / "cugrade");
    CHECK_FALSE(where.installed);
    CHECK(where.root == CUGRADE_SOURCE_ROOT);
    CHECK(where.cpu_include == fs::path(CUGRADE_SOURCE_ROOT) / "harness" / "cpu" / "include");
    CHECK(where.found_by == "this build's tree");
  }
  fs::remove_all(prefix);
}
