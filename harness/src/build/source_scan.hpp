#pragma once
// What a submission file asks of the preprocessor and the assembler, read before anything
// compiles it (design.md §4, trust): the files it includes, and the constructs that would make
// the compiler read, probe or quote a file outside the submission (`#include "/etc/passwd"`,
// `#embed`, `#line`, `__has_include` of a course path, `.incbin` in inline assembly). This is the
// cheap first check with clear messages; the compiler's own dependency lists
// (dependency_check.hpp) catch what a macro builds.
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// One #include (or #include_next, #import) in a file.
struct IncludeLine {
  int line = 0;         ///< 1-based, where the directive is
  std::string name;     ///< between the quotes or brackets; empty when a macro names the file
  bool angled = false;  ///< <name> rather than "name"
};

/// A construct refused before compiling.
struct RefusedConstruct {
  int line = 0;           ///< 1-based
  std::string construct;  ///< as the student wrote it, shortened: `#include "/etc/passwd"`
  std::string reason;     ///< why it is refused and what to do instead
};

/// What scan_source found in one file, each list in the order of the file.
struct SourceScan {
  std::vector<IncludeLine> includes;
  std::vector<RefusedConstruct> refused;
};

/// Reads one file as the preprocessor does (line splices, comments, string, character and raw
/// string literals, `%:` for `#`) without expanding macros, and lists its includes and the
/// refused constructs: an include by a name that is not plain (is_plain_include_name), #embed
/// and __has_embed, #line and line markers, __has_include of anything but a plain literal name,
/// `#pragma GCC dependency`, and `incbin` or `.include` in code or in any run of adjacent string
/// literals (escapes decoded), which is how inline assembly would read a file. Code in an
/// `#if 0` block is read too.
SourceScan scan_source(std::string_view text);

/// Whether an include name is plain: relative, made of `/`-separated parts of letters, digits
/// and `_ - . +`, none of them empty, `.` or `..`. Such a name cannot leave the folders the
/// compiler searches, and is safe as a file name in the staging folder.
bool is_plain_include_name(std::string_view name);

}  // namespace cugrade
