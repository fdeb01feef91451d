#pragma once
// Which files a submission is: the one rule `cugrade check` and `cugrade grade` share.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// The .cu files of a submission: files as given, a folder's .cu files in name order. A missing
/// file or a folder without a .cu file is an error saying so.
Result<std::vector<std::filesystem::path>> submission_files(const std::vector<std::string>& given);

}  // namespace cugrade
