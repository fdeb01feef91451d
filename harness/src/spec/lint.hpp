#pragma once
// `cugrade lint`: every problem in a spec at once, instead of the first failing load.
#include <filesystem>
#include <string>
#include <vector>

#include "spec/size_rules.hpp"

namespace cugrade {

/// Every problem in one spec (empty = valid); used by `cugrade lint`. With its grader's `rules`,
/// its sizes are checked against them too (spec/size_rules.hpp).
std::vector<std::string> lint_spec_file(const std::filesystem::path& yaml_path,
                                        const SizeRules* rules = nullptr);

}  // namespace cugrade
