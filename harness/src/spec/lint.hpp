#pragma once
// `cugrade lint`: every problem in a spec at once, instead of the first failing load.
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade {

/// Every problem in one spec (empty = valid); used by `cugrade lint`.
std::vector<std::string> lint_spec_file(const std::filesystem::path& yaml_path);

}  // namespace cugrade
