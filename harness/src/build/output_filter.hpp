#pragma once
// What of a compiler's output may reach a student's report (design.md §4, trust): never a line
// of a file outside the submission. GCC quotes the source line of every message, re-reading the
// file it names (a `#line` directive can name any file), EDG quotes the lines it read, and GNU
// as quotes the lines of a file it was told to `.include`; each such quote follows a message
// that names its file, so a message about a file outside the readable folders is dropped
// together with the lines that belong to it.
#include <string>
#include <string_view>
#include <vector>

#include "build/dependency_check.hpp"

namespace cugrade {

/// Compiler output with the messages about outside files removed.
struct FilteredOutput {
  std::string text;                  ///< what may be shown, line by line as it came
  std::vector<std::string> outside;  ///< the outside files the dropped messages named, each once
};

/// The file a message line names at its start: GCC's `file:12:5: ...`, `file: In function ...`,
/// `In file included from file:3:`, `                 from file:4,`, EDG's `file(12): ...`;
/// empty for a line that names none (a quoted source line, "compilation terminated.").
std::string message_file(std::string_view line);

/// Drops every line from a message naming a file outside `folders` up to the next message that
/// names a readable file or none; a quoted source line (it starts with a space) belongs to the
/// message before it. Lines are kept in order, and one "[... a message about a file outside
/// your submission was removed]" line marks each dropped run.
FilteredOutput filter_compiler_output(std::string_view output, const ReadableFolders& folders);

}  // namespace cugrade
