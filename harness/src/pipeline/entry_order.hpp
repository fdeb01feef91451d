#pragma once
// The order many entries run in: longest first, by each entry's seconds in the last run (kept in
// a small JSON file in cugrade's cache folder), as CTest orders tests by its cost data. The longest
// then start early instead of running on their own at the end while the rest of the machine
// waits. Entries never seen go first, in their given order: they may be long.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cugrade {

/// The seconds kept in `file` by key; none when it is empty (no file), missing, damaged or not ours.
std::map<std::string, double> load_entry_seconds(const std::filesystem::path& file);

/// Writes `seconds` into `file` over what it kept (keys not given keep theirs); an empty path
/// writes nothing, and a file that cannot be written keeps nothing and is no error.
void save_entry_seconds(const std::filesystem::path& file, const std::map<std::string, double>& seconds);

/// The indices of `keys`: those without seconds first, then the others longest first (equals in
/// their given order).
std::vector<std::size_t> longest_first(const std::vector<std::string>& keys, const std::map<std::string, double>& seconds);

}  // namespace cugrade
