#pragma once
// Reading the linker's complaints about a student's objects: entry points interface.cuh
// declares but the file does not define, and names defined twice.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// What the linker said, by kind; each name once, in order of first mention.
struct LinkErrors {
  std::vector<std::string>
      undefined;  ///< "matmul_tiled(float const*, float const*, float*, int, int, int)"
  std::vector<std::string> multiple;       ///< names defined more than once
  std::vector<std::string> missing_files;  ///< inputs the linker could not open
  std::string first_error;                 ///< the first error line, for anything else
};

/// Parses GNU ld output (through nvcc): "undefined reference to `f(int)'",
/// "multiple definition of `g()'; ...", "cannot find librunner.a: No such file or directory",
/// and nvlink's "Could not open input file 'librunner.a'".
LinkErrors parse_link_errors(std::string_view linker_output);

/// "matmul_tiled(float const*, float const*, float*, int, int, int)" ->
/// "matmul_tiled(float const*, ...)": short enough for a sentence, still recognisable.
std::string abbreviate_signature(std::string_view signature);

/// One paragraph for the student about the missing and doubly defined names. `declared` is
/// the text of interface.cuh (empty when unknown): a missing name it declares is a missing
/// entry point; any other missing name is a function the student calls but never wrote.
std::string describe_link_errors(const LinkErrors& errors, std::string_view declared);

}  // namespace cugrade
