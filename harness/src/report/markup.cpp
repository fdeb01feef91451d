#include "report/markup.hpp"

#include <cstdint>

namespace cugrade {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// The length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one
/// (overlong forms, surrogates and code points past U+10FFFF are not valid).
std::size_t sequence_length(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t min = 0;
  if (lead < 0x80) { code_point = lead; return 1; }
  if ((lead & 0xE0) == 0xC0) { length = 2; code_point = lead & 0x1F; min = 0x80; }
  else if ((lead & 0xF0) == 0xE0) { length = 3; code_point = lead & 0x0F; min = 0x800; }
  else if ((lead & 0xF8) == 0xF0) { length = 4; code_point = lead & 0x07; min = 0x10000; }
  else return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  if (code_point < min || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
    return 0;
  return length;
}

bool allowed(char32_t c) {
  if (c < 0x20) return c == '\t' || c == '\n' || c == '\r';
  return c != 0x7F && c != 0xFFFE && c != 0xFFFF;
}

}  // namespace

std::string clean_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const std::size_t length = sequence_length(text, i, c);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (allowed(c)) out.append(text.substr(i, length));
    else out += kReplacement;
    i += length;
  }
  return out;
}

std::string escape_markup(std::string_view text) {
  const std::string clean = clean_text(text);
  std::string out;
  out.reserve(clean.size());
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace cugrade
