#pragma once
// Text from a submission (compiler output, messages, file names) made safe for HTML and XML.
// Both reports are read by tools that reject a whole file for one bad byte (a JUnit parser, an
// XML-strict browser view), so escaping also repairs what is not valid UTF-8.
#include <string>
#include <string_view>

namespace cugrade {

/// The text as valid UTF-8 with only the characters XML 1.0 allows: every byte that does not
/// start a valid sequence, and every control character other than tab, newline and carriage
/// return (a terminal colour code's ESC, a NUL), becomes U+FFFD.
std::string clean_text(std::string_view text);

/// clean_text, then &, <, >, " and ' as character references: safe in HTML and XML element
/// content and in double- or single-quoted attribute values.
std::string escape_markup(std::string_view text);

}  // namespace cugrade
