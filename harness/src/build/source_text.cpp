#include "build/source_text.hpp"

#include <cstdint>

namespace cugrade {

namespace {

/// Appends code point `c` as UTF-8 (only its ASCII range matters to the checks).
void append_code_point(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string decode_escapes(std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    const char e = body[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case 'e': out += '\x1b'; break;
      case 'x': {
        std::uint32_t value = 0;
        while (i + 1 < body.size() && hex_value(body[i + 1]) >= 0)
          value = (value << 4 | static_cast<std::uint32_t>(hex_value(body[++i]))) & 0x1FFFFF;
        append_code_point(out, value);
        break;
      }
      case 'u':
      case 'U': {
        const std::size_t digits = e == 'u' ? 4 : 8;
        std::uint32_t value = 0;
        for (std::size_t k = 0; k < digits && i + 1 < body.size() && hex_value(body[i + 1]) >= 0; ++k)
          value = (value << 4 | static_cast<std::uint32_t>(hex_value(body[++i]))) & 0x1FFFFF;
        append_code_point(out, value);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          std::uint32_t value = static_cast<std::uint32_t>(e - '0');
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
            value = value * 8 + static_cast<std::uint32_t>(body[++i] - '0');
          append_code_point(out, value);
        } else {
          out += e;  // \\ \" \' \? and anything unknown
        }
    }
  }
  return out;
}

SplicedSource splice_lines(std::string_view raw) {
  SplicedSource out;
  out.text.reserve(raw.size());
  out.line.reserve(raw.size());
  int line = 1;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\') {
      // GCC also splices a backslash followed by spaces before the newline (with a warning).
      std::size_t j = i + 1;
      while (j < raw.size() && (raw[j] == ' ' || raw[j] == '\t')) ++j;
      if (j < raw.size() && raw[j] == '\r' && j + 1 < raw.size() && raw[j + 1] == '\n') ++j;
      if (j < raw.size() && raw[j] == '\n') {
        ++line;
        i = j;
        continue;
      }
    }
    out.text += raw[i];
    out.line.push_back(line);
    if (raw[i] == '\n') ++line;
  }
  return out;
}

}  // namespace cugrade
