#pragma once
// The bench's test assignment (harness/tests/data/bench/twice/: y = 2·x with two bench tables),
// its grader (the pipeline tests' "twice") and a private work folder.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "pipeline/twice_fixture.hpp"
#include "spec/spec_loader.hpp"

#include "temp_dir.hpp"

namespace cugrade::test {

/// The spec of harness/tests/data/bench/twice/, loaded strictly.
inline Spec bench_twice_spec() {
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/bench/twice/assignment.yaml");
  REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
  return *loaded;
}

/// A fresh folder, removed at scope exit.
using BenchTempDir = TempDir;

}  // namespace cugrade::test
