#pragma once
// Files that a reader never sees half-written: a batch killed at any point leaves each result
// either whole or absent, which is what lets a restarted batch trust what it finds; a report
// that failed to write leaves the previous one intact.
#include <filesystem>
#include <string_view>

#include "core/result.hpp"

namespace cugrade {

/// Replaces `path` with `text` in one step: written beside it under a unique name, flushed, then
/// renamed over it; its folder is created if needed. On failure the old file is left as it was,
/// and the message names the file as `what` + path (e.g. what = "report ").
Result<bool> write_file_atomically(const std::filesystem::path& path, std::string_view text,
                                   std::string_view what = {});

/// The whole content of `path`; an error naming the file when it cannot be read.
Result<std::string> read_whole_file(const std::filesystem::path& path);

}  // namespace cugrade
