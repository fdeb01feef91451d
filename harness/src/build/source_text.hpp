#pragma once
// A source file's text as the preprocessor sees it before tokens (translation phases 1 and 2),
// and what a string literal's escapes stand for: the ground under scan_source (source_scan.hpp),
// so that a directive split by a line splice, or `.incbin` spelled in escapes, reads as itself.
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// A file's text with its line splices removed, each character with the line it was on.
struct SplicedSource {
  std::string text;
  std::vector<int> line;  ///< 1-based; line[i] is the line of text[i]
};

/// Removes every backslash-newline (also with CR before the newline, and, as GCC does, with blanks
/// between the backslash and the newline), keeping each remaining character's original line.
SplicedSource splice_lines(std::string_view raw);

/// The characters a (non-raw) string or character literal's body stands for: simple, octal, hex
/// and universal-character escapes decoded (code points as UTF-8), anything unknown kept as the
/// character after the backslash.
std::string decode_escapes(std::string_view body);

}  // namespace cugrade
