// cudaMalloc and cudaFree are wrapped by the linker (--wrap=cudaMalloc,--wrap=cudaFree), as the
// kernel launches are (launch_tracking.cpp): every call in the student's objects, the reference
// solutions and the runner itself binds to __wrap_X below, which calls the real X (__real_X)
// unless a timed call is in progress.
#include "allocation_wraps.hpp"

#include <cuda_runtime.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "kept_allocations.hpp"

extern "C" {
// Weak, as in launch_tracking.cpp: a link that does not wrap these leaves them null and links.
__attribute__((weak)) cudaError_t __real_cudaMalloc(void** pointer, size_t bytes);
__attribute__((weak)) cudaError_t __real_cudaFree(void* pointer);
}

namespace cugrade::runner {
namespace {

std::mutex mutex;       ///< guards everything below
int timed_calls = 0;    ///< timed calls in progress (0 or 1: the lock-step makes one at a time)
KeptAllocations& blocks() {
  static KeptAllocations kept;
  return kept;
}

bool keeping() {
  static const bool wanted = [] {
    const char* value = std::getenv(keep_allocations_variable);
    return !(value && std::string(value) == "0");
  }();
  return wanted;
}

/// Frees `pointers` for real, the lock not held (cudaFree waits for the device).
void free_for_real(const std::vector<void*>& pointers) {
  for (void* pointer : pointers) __real_cudaFree(pointer);
}

}  // namespace

TimedCallAllocations::TimedCallAllocations() {
  if (!keeping()) return;
  std::lock_guard lock(mutex);
  ++timed_calls;
}

TimedCallAllocations::~TimedCallAllocations() {
  if (!keeping()) return;
  std::lock_guard lock(mutex);
  --timed_calls;
}

void free_kept_allocations() {
  std::vector<void*> released;
  {
    std::lock_guard lock(mutex);
    released = blocks().release_all();
  }
  free_for_real(released);
}

}  // namespace cugrade::runner

extern "C" {

/// Every cudaMalloc once the link wraps it.
cudaError_t __wrap_cudaMalloc(void** pointer, size_t bytes) {
  using namespace cugrade::runner;
  bool in_call = false;
  {
    std::lock_guard lock(mutex);
    in_call = timed_calls > 0;
    if (in_call && pointer)
      if (void* kept = blocks().take(bytes)) {
        *pointer = kept;
        return cudaSuccess;
      }
  }
  cudaError_t status = __real_cudaMalloc(pointer, bytes);
  if (status == cudaErrorMemoryAllocation && in_call) {
    // The kept blocks may be what the device lacks: give them back and ask again.
    free_kept_allocations();
    cudaGetLastError();  // the failure above must not outlive the retry
    status = __real_cudaMalloc(pointer, bytes);
  }
  if (status == cudaSuccess && in_call && pointer) {
    std::lock_guard lock(mutex);
    blocks().note_made(*pointer, bytes);
  }
  return status;
}

/// Every cudaFree once the link wraps it.
cudaError_t __wrap_cudaFree(void* pointer) {
  using namespace cugrade::runner;
  std::size_t bytes = 0;
  KeptAllocations::Free what;
  {
    std::lock_guard lock(mutex);
    what = blocks().on_free(pointer, timed_calls > 0, bytes);
  }
  switch (what) {
    case KeptAllocations::Free::real:
      return __real_cudaFree(pointer);
    case KeptAllocations::Free::double_free:
      return cudaErrorInvalidValue;
    case KeptAllocations::Free::keep:
      break;
  }
  // What the real cudaFree waits for before it returns: the device's work, which may still be
  // using the block.
  const cudaError_t status = cudaDeviceSynchronize();
  std::vector<void*> evicted;
  {
    std::lock_guard lock(mutex);
    blocks().keep(pointer, bytes);
    evicted = blocks().evicted();
  }
  free_for_real(evicted);
  return status;
}
}
