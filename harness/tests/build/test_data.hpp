#pragma once
// Reading the build tests' sample compiler and linker output (harness/tests/data/build/).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace cugrade::test {

/// The text of harness/tests/data/build/<name>; fails the test when it is missing.
inline std::string build_sample(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/build/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing test data build/" << name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace cugrade::test
