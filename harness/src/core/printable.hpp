#pragma once
// Names that come from students (file names, student ids) hold any bytes but a '/' and a NUL:
// quotes, newlines, escape sequences, bytes that are not UTF-8. Shown in a message, a log line
// or a gradebook note, they must stay on one line and not drive the terminal.
#include <string>
#include <string_view>

namespace cugrade {

/// `text` on one line: control characters as \n, \t, \r or \xNN, a backslash as \\, bytes that
/// are not valid UTF-8 as \xNN; printable ASCII and valid UTF-8 (but U+0080–U+009F) unchanged.
std::string printable(std::string_view text);

/// `text` as printable() makes it, but keeping its line breaks and tabs, and its backslashes as
/// they are: prose from a student's file or program (a compiler's quote of a line, a message)
/// shown on a terminal, which no byte of it may drive (an escape sequence).
std::string terminal_text(std::string_view text);

/// Whether `text` is valid UTF-8 (what JSON text may hold as it is).
bool is_valid_utf8(std::string_view text);

}  // namespace cugrade
