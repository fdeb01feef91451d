#pragma once
// Files that a reader never sees half-written: a batch killed at any point leaves each result
// either whole or absent, which is what lets a restarted batch trust what it finds.
#include <filesystem>
#include <string_view>

#include "core/result.hpp"

namespace cugrade {

/// Replaces `path` with `text` in one step: written beside it under a unique name, flushed, then
/// renamed over it; its folder is created if needed. On failure the old file is left as it was.
Result<bool> write_file_atomically(const std::filesystem::path& path, std::string_view text);

/// The whole content of `path`; an error naming the file when it cannot be read.
Result<std::string> read_whole_file(const std::filesystem::path& path);

}  // namespace cugrade
