#pragma once
// The student's line of the instruction that faulted, from the runner's own line tables (the CPU
// build compiles the submission with -g1; libbacktrace, which GCC ships, reads them).
#include <string>

namespace cugrade_cpu {

/// "vecadd.cu:12": the student's file (by name only) and line of the code at `pc`: the innermost
/// inlined frame that is not a header of an include folder (the shims' ::cugrade_cpu::rmw, an
/// atomic, libstdc++); "" where the runner has no line tables or libbacktrace was not built in.
std::string source_site_of(const void* pc);

}  // namespace cugrade_cpu
