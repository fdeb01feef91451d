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
