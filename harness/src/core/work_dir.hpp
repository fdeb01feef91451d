#pragma once
// Where one check or bench keeps its files (objects, runner, inputs, outputs, events).
#include <filesystem>
#include <string_view>

namespace cugrade {

/// `requested` (created if missing) when it is not empty; otherwise a fresh private folder
/// (mode 0700) "<tmp>/<prefix>XXXXXX". Throws std::runtime_error when the folder cannot be made.
std::filesystem::path make_work_dir(const std::filesystem::path& requested, std::string_view prefix);

}  // namespace cugrade
