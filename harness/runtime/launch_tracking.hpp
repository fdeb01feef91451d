#pragma once
// Which kernel did the student launch last, and did its launches use shared memory? Kernel
// launches are routed through wrappers (launch_tracking.cpp) so a CUDA error can name the kernel
// that caused it, and a result that changes with what the GPU held before the call can be told
// apart: shared memory, or a register no one set (pipeline/schedule_race.hpp).
#include <string>

namespace cugrade::runner {

/// Forgets the last kernel and the launches' shared memory; called before each entry point so an
/// error is never blamed on a kernel of an earlier call.
void reset_last_kernel();

/// The (demangled) name of the last kernel launched since the reset; empty when none was
/// launched, or the link did not route launches through the wrappers.
std::string last_kernel_name();

/// Whether the launches since the reset used shared memory: "yes" (static or dynamic), "no"
/// (none did, or nothing was launched), or "" when a kernel's static size could not be read.
std::string shared_memory_used();

}  // namespace cugrade::runner
