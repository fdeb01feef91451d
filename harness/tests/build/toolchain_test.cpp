// What the installed compilers say about themselves: header folders, library files, the toolkit.
#include "build/toolchain.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("build::compiler_include_dirs") {
  const auto folders = compiler_include_dirs("g++", {});
  CHECK(std::find(folders.begin(), folders.end(), fs::path("/usr/include")) != folders.end());
  CHECK(compiler_include_dirs("/no/such/compiler", {}).empty());
}

TEST_CASE("build::system_link_libraries") {
  const auto libraries = system_link_libraries("g++", {});
  const auto has = [&](const std::string& name) {
    return std::any_of(libraries.begin(), libraries.end(),
                       [&](const LinkLibrary& l) { return l.file.filename() == name && fs::exists(l.file); });
  };
  CHECK(has("libc.so.6"));
  CHECK(has("libstdc++.so.6"));
  CHECK(has("libm.so.6"));
  CHECK(find_library_file("g++", "libno_such_library.so", {}).empty());
}

TEST_CASE("build::compiler_root") {
  // Debian's g++ is /usr/bin/g++ -> g++-12: the system itself, which the sandbox shows anyway.
  CHECK(compiler_root("g++", {}) == "/usr");
  CHECK(compiler_root("/usr/bin/g++", {}) == "/usr");
  CHECK(compiler_root("/no/such/compiler", {}).empty());
  CHECK(compiler_root("no-such-compiler", {}).empty());
}

TEST_CASE("build::cuda_toolkit_root") {
  CHECK(cuda_toolkit_root("/usr/local/cuda/bin/nvcc") == "/usr/local/cuda");
  CHECK(cuda_toolkit_root("/opt/cuda-13.0/bin/../bin/nvcc") == "/opt/cuda-13.0");
  if (fs::exists("/usr/local/cuda/bin/nvcc")) {
    const auto libraries = cuda_link_libraries("/usr/local/cuda/bin/nvcc", {"cublas"});
    CHECK(std::any_of(libraries.begin(), libraries.end(),
                      [](const LinkLibrary& l) { return l.file.filename() == "libcudart_static.a"; }));
    const auto folders = cuda_include_dirs("/usr/local/cuda/bin/nvcc");
    CHECK(std::any_of(folders.begin(), folders.end(),
                      [](const fs::path& f) { return fs::exists(f / "cuda_runtime.h"); }));
  }
}

TEST_CASE("build::nvcc_profile_includes") {
  const std::string dryrun =
      "#$ _HERE_=/usr/local/cuda-13.0/bin\n"
      "#$ INCLUDES=\"-I/usr/local/cuda-13.0/bin/../targets/x86_64-linux/include\"  \n"
      "#$ SYSTEM_INCLUDES=\"-isystem\" \"/usr/local/cuda-13.0/bin/../targets/x86_64-linux/include/cccl\"  \n"
      "#$ LIBRARIES=  \"-L/usr/local/cuda-13.0/bin/../targets/x86_64-linux/lib\"\n";
  CHECK(nvcc_profile_includes(dryrun) ==
        std::vector<fs::path>{"/usr/local/cuda-13.0/targets/x86_64-linux/include",
                              "/usr/local/cuda-13.0/targets/x86_64-linux/include/cccl"});
  CHECK(nvcc_profile_includes("").empty());
}

TEST_CASE("build::cuda_include_dirs of an nvcc named without its folder (found on PATH)") {
  if (!fs::exists("/usr/local/cuda/bin/nvcc")) return;
  const auto folders = cuda_include_dirs("nvcc");
  // Found only where nvcc is on this process's PATH; then its headers' folder must be there.
  if (!folders.empty())
    CHECK(std::any_of(folders.begin(), folders.end(), [](const fs::path& f) { return fs::exists(f / "cuda_runtime.h"); }));
}
