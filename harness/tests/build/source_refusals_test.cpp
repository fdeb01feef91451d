// What a source scan refuses: the pragma that makes the compiler check another file, with any
// spacing, and nothing else that mentions GCC.
#include "build/source_refusals.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("build::refusal::is_dependency_pragma") {
  CHECK(refusal::is_dependency_pragma("GCC dependency \"other.h\""));
  CHECK(refusal::is_dependency_pragma("GCC\tdependency \"other.h\""));
  CHECK(refusal::is_dependency_pragma("GCC   dependency"));
  CHECK(refusal::is_dependency_pragma("GCC diagnostic push GCC dependency \"x\""));
  CHECK_FALSE(refusal::is_dependency_pragma("GCC diagnostic ignored \"-Wall\""));
  CHECK_FALSE(refusal::is_dependency_pragma("once"));
}
