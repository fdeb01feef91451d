#pragma once
// "Did you mean ...?": the nearest of a few known names to a misspelt one, for spec messages.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate equal to `given` up to case, else the one within 2 edits (the first of the
/// nearest), else nothing; a name is never suggested for a wholly different one ("x" → "id").
std::optional<std::string> nearest_name(std::string_view given,
                                        const std::vector<std::string>& candidates);

/// "; did you mean 'tolerance'?" when a candidate is near, else "".
std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates);

/// "a, b, c": names joined for a message.
std::string join_names(const std::vector<std::string>& names);

}  // namespace cugrade
