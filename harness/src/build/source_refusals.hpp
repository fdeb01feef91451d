#pragma once
// What a source scan (source_scan.hpp) refuses before anything compiles, and what the student is
// told for each: a file the submission may not read in (an include that is not its own, #embed,
// an assembler's .incbin), a probe of paths outside it (__has_include), a line marker that would
// change the file names the compiler's messages quote.
#include <string_view>

namespace cugrade::refusal {

/// Why an include that is not the submission's own file or a system header is refused.
inline constexpr std::string_view include =
    "includes must be your own files (next to your .cu file, named plainly: no absolute path, "
    "no ..) or system headers such as <cuda_runtime.h>";
/// Why #embed is refused.
inline constexpr std::string_view embed =
    "#embed reads a file into your program while it compiles; a submission may only include its "
    "own files and system headers";
/// Why __has_include of anything but a plain header name is refused.
inline constexpr std::string_view has_include =
    "__has_include may only test a plain header name written in the file: probing paths outside "
    "your submission is not allowed";
/// Why #line and line markers are refused.
inline constexpr std::string_view line =
    "#line changes the file name the compiler's messages use (and quote); remove it";
/// Why #pragma GCC dependency is refused.
inline constexpr std::string_view dependency =
    "#pragma GCC dependency checks another file; a submission may only use its own files";
/// Why assembler directives that read files are refused.
inline constexpr std::string_view assembler =
    "assembler directives that read files (.incbin, .include) are not allowed in a submission";

/// Whether `text` (a #pragma's or _Pragma's, after the word "pragma") is `GCC dependency`, with
/// any spacing: it makes the compiler check another file.
bool is_dependency_pragma(std::string_view text);

}  // namespace cugrade::refusal
