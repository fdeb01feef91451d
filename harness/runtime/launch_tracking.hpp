#pragma once
// Which kernel did the student launch last? Kernel launches are routed through wrappers
// (launch_tracking.cpp) so a CUDA error can name the kernel that caused it.
#include <string>

namespace cugrade::runner {

/// Forgets the last kernel; called before each entry point so an error is never blamed on a
/// kernel of an earlier call.
void reset_last_kernel();

/// The (demangled) name of the last kernel launched since the reset; empty when none was
/// launched, or the link did not route launches through the wrappers.
std::string last_kernel_name();

}  // namespace cugrade::runner
