// The runner's launch tracking (harness/runtime/launch_tracking.hpp) for the CPU backend: every
// launch goes through run_grid, which notes the kernel, so no linker wrapping is needed.
#include "launch_tracking.hpp"

#include "error_state.hpp"

namespace cugrade::runner {

void reset_last_kernel() { cugrade_cpu::forget_kernel(); }

std::string last_kernel_name() { return cugrade_cpu::last_kernel(); }

}  // namespace cugrade::runner
