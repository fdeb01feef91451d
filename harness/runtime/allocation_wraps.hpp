#pragma once
// Every CUDA call that allocates GPU memory, counted against the runner's limit (memory_ledger.hpp
// says why); and cudaMalloc and cudaFree inside a graded timed call, served from blocks earlier
// timed calls freed (kept_allocations.hpp says why). The link wraps them (nvcc_command.hpp,
// runtime/CMakeLists.txt); in a runner whose link did not wrap them, they are the CUDA runtime's.
#include <optional>
#include <string>

#include "memory_ledger.hpp"

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

/// The first allocation the GPU memory limit refused since the last call, in words ("" when
/// none), forgotten: what the next event of the task tells the harness.
std::string take_memory_refusal();

/// The allocation holding `pointer`, live or among the last freed (MemoryLedger::holder_of): for
/// the words of a failed call (api_failures.hpp).
std::optional<MemoryLedger::Holder> allocation_holding(const void* pointer);

/// Frees every kept block for real (a new timing task loads: other sizes, other inputs).
void free_kept_allocations();

}  // namespace cugrade::runner
