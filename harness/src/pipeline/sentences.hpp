#pragma once
// A case's message is sentences joined by " — " (what each stage found, in order); these edit it
// as such, so no stage leaves a doubled or dangling separator behind.
#include <cstddef>
#include <string>
#include <string_view>

namespace cugrade {

/// What stands between two sentences of a message.
inline constexpr std::string_view sentence_separator = " — ";

/// Appends `sentence` to `message`, after a separator unless `message` is empty.
void append_sentence(std::string& message, std::string_view sentence);

/// Erases message[from, to) and one separator beside it: the one before, else the one after.
void erase_sentence(std::string& message, std::size_t from, std::size_t to);

/// Replaces the first `sentence` in `message` by `replacement`; true when it was there.
bool replace_sentence(std::string& message, std::string_view sentence, std::string_view replacement);

}  // namespace cugrade
