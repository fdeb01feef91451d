#pragma once
// The compilers' warnings that a variable is read before it is set: g++'s -Wuninitialized and
// -Wmaybe-uninitialized (the CPU backend's compile turns them on) and nvcc's warning #549. They
// are not shown as build warnings (the CUDA backend's build cannot give them for device code); a
// case whose results they explain names them (pipeline/unset_reads.hpp).
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// The host compiler's flags that make it warn of such reads.
inline const std::vector<std::string> unset_read_flags = {"-Wuninitialized", "-Wmaybe-uninitialized"};

/// The warnings of `diagnostics` that say a variable may be read before it is set: g++'s
/// "'sum' is used uninitialized" and "'sum' may be used uninitialized", nvcc's
/// `variable "sum" is used before its value is set`.
std::vector<Diagnostic> unset_reads_in(const std::vector<Diagnostic>& diagnostics);

/// Moves such warnings out of `diagnostics`, in order, and returns them.
std::vector<Diagnostic> take_unset_reads(std::vector<Diagnostic>& diagnostics);

/// The variable such a warning names ("sum"); empty when it names none.
std::string unset_variable(const Diagnostic& warning);

}  // namespace cugrade
