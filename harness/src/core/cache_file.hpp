#pragma once
// The small JSON files cugrade keeps in its cache folder between runs (the reference's counters,
// the self-test's seconds): {"format": N, "<section>": {key: value, ...}}, read whole and
// replaced in one step. A cache is advice: a file that is missing, damaged, of another format or
// that cannot be written keeps nothing, and is never an error.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace cugrade {

/// The object under `section` in the cache file `file` of format `format`; an empty object when
/// the file is missing, damaged, or of another format.
nlohmann::json read_cache_section(const std::filesystem::path& file, int format, const std::string& section);

/// Replaces `file` with {"format": format, section: entries} in one step, its folder made if
/// needed; nothing when it cannot be written.
void write_cache_section(const std::filesystem::path& file, int format, const std::string& section,
                         const nlohmann::json& entries);

}  // namespace cugrade
