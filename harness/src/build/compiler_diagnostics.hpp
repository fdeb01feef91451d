#pragma once
// Reading nvcc's messages: the EDG front end's `file(line): error: ...`, the host compiler's
// `file:line:col: error: ...` and the assembler's `file:line: Error: ...`, shortened to the names
// a student knows.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// The files whose paths messages may mention, so that they are shown by the student's name.
struct DiagnosticPaths {
  std::vector<std::filesystem::path> sources;  ///< the student's files: shown by file name
  std::filesystem::path assignment_dir;        ///< its headers: shown relative to it
  /// Files the compiler knows by another name (the staged copies, staging.hpp): as it names
  /// them ("src/submission_0.cu"), then as the student knows them ("vecadd.cu").
  std::vector<std::pair<std::string, std::string>> renamed;
};

/// What starts the message of a diagnostic of the assembler (GNU as, on inline `asm`): "the
/// assembler: no such instruction: ...".
inline constexpr std::string_view assembler_said = "the assembler: ";

/// The errors and warnings in compiler output, in order, duplicates dropped, at most `limit`.
std::vector<Diagnostic> parse_compiler_diagnostics(std::string_view output,
                                                   const DiagnosticPaths& paths,
                                                   std::size_t limit = 10);

/// One line for a person: "vecadd.cu:3: identifier "j" is undefined" (column when known).
std::string describe(const Diagnostic& diagnostic);

}  // namespace cugrade
