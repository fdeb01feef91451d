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
/// nearest), else nothing; a name is never suggested for a wholly different one ("x" → "id"),
/// nor for a `given` longer than 64 characters (no misspelling is that long, and the edit
/// distance would cost its length times each candidate's).
std::optional<std::string> nearest_name(std::string_view given,
                                        const std::vector<std::string>& candidates);

/// "; did you mean 'tolerance'?" when a candidate is near, else "".
std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates);

/// "a, b, c": names joined for a message, each excerpted; past `most` names, "… (N more)".
std::string join_names(const std::vector<std::string>& names,
                       std::size_t most = static_cast<std::size_t>(-1));

/// `text` as a message shows it: whole when short, else its first `most` bytes (never cutting a
/// UTF-8 character) and "…", so that a message never echoes megabytes of a spec.
std::string excerpt(std::string_view text, std::size_t most = 80);

/// "'text'", excerpted: how a value or name from a spec is quoted in a message.
std::string quoted_excerpt(std::string_view text);

}  // namespace cugrade
