#pragma once
// The bench's test assignment (harness/tests/data/bench/twice/: y = 2·x with two bench tables),
// its grader (the pipeline tests' "twice") and a private work folder.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "pipeline/twice_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade::test {

/// The spec of harness/tests/data/bench/twice/, loaded strictly.
inline Spec bench_twice_spec() {
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/bench/twice/assignment.yaml");
  REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
  return *loaded;
}

/// A fresh folder, removed at scope exit.
struct BenchTempDir {
  std::filesystem::path path;
  BenchTempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cugrade-bench-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~BenchTempDir() { std::filesystem::remove_all(path); }
};

}  // namespace cugrade::test
