#pragma once
// A fresh folder for one test's files, shared by the test executables (header-only: they link
// nothing in common).
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace cugrade::test {

/// A fresh, empty folder under the system's temporary folder ("cugrade-<name>-XXXXXX"), removed
/// with everything in it at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(std::string_view name = "test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("cugrade-" + std::string(name) + "-XXXXXX")).string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace cugrade::test
