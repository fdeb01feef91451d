#pragma once
// Golden-file comparison for rendered reports. A test compares its output with
// harness/tests/data/golden/<name>; with CUGRADE_UPDATE_GOLDEN=1 in the environment it rewrites
// the file instead (review the change with `git diff` before committing it).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

namespace cugrade::test {

/// Checks `actual` against the golden file `name`, or rewrites the file when asked to.
inline void check_golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path path = std::filesystem::path(CUGRADE_TEST_DATA) / "golden" / name;
  const char* update = std::getenv("CUGRADE_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    MESSAGE("rewrote golden file " << name);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << name
                                 << " (run with CUGRADE_UPDATE_GOLDEN=1 to create it)");
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK_MESSAGE(actual == expected.str(),
                "output differs from golden file " << name << "; actual output:\n" << actual);
}

}  // namespace cugrade::test
