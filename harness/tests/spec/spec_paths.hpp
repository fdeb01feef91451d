#pragma once
// Where the test specs live (harness/tests/data/specs/<name>/assignment.yaml).
#include <filesystem>
#include <string>

namespace cugrade::test {

/// The folder holding one test spec per subfolder.
inline std::filesystem::path specs_dir() {
  return std::filesystem::path(CUGRADE_TEST_DATA) / "specs";
}

/// The assignment.yaml of test spec `name`, as the string messages will start with.
inline std::string spec_yaml(const std::string& name) {
  return (specs_dir() / name / "assignment.yaml").string();
}

}  // namespace cugrade::test
