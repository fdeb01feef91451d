#pragma once
// cudaMalloc and cudaFree inside a graded timed call, served from blocks earlier timed calls freed
// (kept_allocations.hpp says why). The link wraps both (nvcc_command.hpp, runtime/CMakeLists.txt);
// outside a timed call, and in a runner whose link did not wrap them, they are the CUDA runtime's.

namespace cugrade::runner {

/// The environment variable that, set to "0", leaves timed calls' allocations to the CUDA runtime
/// (a side-by-side measurement; the harness passes it on to its runners).
inline constexpr const char* keep_allocations_variable = "CUGRADE_KEEP_ALLOCATIONS";

/// While alive, a timed call of the lock-step is in progress (serve_task.cpp): its cudaMalloc of
/// a size a block kept has gets that block, and its cudaFree of a block a timed call made waits
/// for the device (as the real cudaFree does) and keeps the block.
class TimedCallAllocations {
 public:
  TimedCallAllocations();
  ~TimedCallAllocations();
  TimedCallAllocations(const TimedCallAllocations&) = delete;
  TimedCallAllocations& operator=(const TimedCallAllocations&) = delete;
};

/// Frees every kept block for real (a new timing task loads: other sizes, other inputs).
void free_kept_allocations();

}  // namespace cugrade::runner
