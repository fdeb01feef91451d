// The allocating CUDA calls are wrapped by the linker (--wrap=cudaMalloc,--wrap=cudaFree,...), as
// the kernel launches are (launch_tracking.cpp): every call in the student's objects, the
// reference solutions and the runner itself binds to __wrap_X below, which counts it against the
// GPU memory limit (memory_ledger.hpp) and calls the real X (__real_X); cudaMalloc and cudaFree
// inside a timed call also use the kept blocks (kept_allocations.hpp).
#include "allocation_wraps.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>

#include "api_failures.hpp"
#include "kept_allocations.hpp"
#include "memory_ledger.hpp"

extern "C" {
// Weak, as in launch_tracking.cpp: a link that does not wrap these leaves them null and links.
__attribute__((weak)) cudaError_t __real_cudaMalloc(void** pointer, size_t bytes);
__attribute__((weak)) cudaError_t __real_cudaFree(void* pointer);
#ifndef CUGRADE_CPU_RUNNER  // the CPU runner's link wraps nothing: only the two above are needed there
__attribute__((weak)) cudaError_t __real_cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags);
__attribute__((weak)) cudaError_t __real_cudaMallocPitch(void** pointer, size_t* pitch, size_t width, size_t height);
__attribute__((weak)) cudaError_t __real_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent);
__attribute__((weak)) cudaError_t __real_cudaMallocAsync(void** pointer, size_t bytes, cudaStream_t stream);
__attribute__((weak)) cudaError_t __real_cudaFreeAsync(void* pointer, cudaStream_t stream);
__attribute__((weak)) cudaError_t __real_cudaDeviceSetLimit(cudaLimit limit, size_t value);
#endif
}

namespace cugrade::runner {
namespace {

std::mutex mutex;       ///< guards everything below
int timed_calls = 0;    ///< timed calls in progress (0 or 1: the lock-step makes one at a time)
KeptAllocations& blocks() {
  static KeptAllocations kept;
  return kept;
}

/// The limit, read from the environment before any constructor of the submission's runs (a
/// constructor's priority 101 comes first among the program's own).
std::uint64_t limit_bytes = 0;
__attribute__((constructor(101))) void read_memory_limit() {
  limit_bytes = memory_limit_from(std::getenv(gpu_memory_limit_variable));
}

MemoryLedger& ledger() {
  static MemoryLedger kept(limit_bytes);
  return kept;
}

bool keeping() {
  static const bool wanted = [] {
    const char* value = std::getenv(keep_allocations_variable);
    return !(value && std::string(value) == "0");
  }();
  return wanted;
}

/// What a refused allocation returns, with the runtime's last error set to it as a smaller GPU's
/// failed allocation sets it (cudaGetLastError() then returns it once): the real cudaMalloc is
/// asked for more than any device holds, which it refuses at once. The lock is not held.
cudaError_t refused() {
  void* none = nullptr;
  const cudaError_t status = __real_cudaMalloc(&none, ~std::size_t{0});
  if (status == cudaSuccess && none) __real_cudaFree(none);  // no runtime grants that; never kept
  return cudaErrorMemoryAllocation;
}

/// Frees `pointers` for real, the lock not held (cudaFree waits for the device).
void free_for_real(const std::vector<void*>& pointers) {
  for (void* pointer : pointers) __real_cudaFree(pointer);
}

#ifndef CUGRADE_CPU_RUNNER  // the wraps below are the CUDA runner's only
/// Whether the ledger admits `bytes` more for `call`.
bool admitted(const char* call, std::uint64_t bytes) {
  std::lock_guard lock(mutex);
  return ledger().admit(call, bytes);
}

/// Notes a live allocation once the real call succeeded.
cudaError_t noted(cudaError_t status, const void* pointer, std::uint64_t bytes) {
  if (status == cudaSuccess) {
    std::lock_guard lock(mutex);
    ledger().note_made(pointer, bytes);
  }
  return status;
}

void note_freed(const void* pointer) {
  std::lock_guard lock(mutex);
  ledger().note_freed(pointer);
}

/// A pitched allocation's size before the runtime chooses the pitch: rows rounded up to 512 bytes
/// (no GPU's pitch alignment is larger).
std::uint64_t pitched_bytes(std::size_t width, std::size_t height, std::size_t depth) {
  const std::uint64_t row = (static_cast<std::uint64_t>(width) + 511) / 512 * 512;
  return row * height * depth;
}
#endif

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

std::string take_memory_refusal() {
  std::lock_guard lock(mutex);
  return ledger().take_refusal();
}

std::optional<MemoryLedger::Holder> allocation_holding(const void* pointer) {
  std::lock_guard lock(mutex);
  return ledger().holder_of(pointer);
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
    std::unique_lock lock(mutex);
    if (!ledger().admit("cudaMalloc", bytes)) {
      lock.unlock();
      return refused();
    }
    in_call = timed_calls > 0;
    if (in_call && pointer)
      if (void* kept = blocks().take(bytes)) {
        *pointer = kept;
        ledger().note_made(kept, bytes);
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
  if (status == cudaSuccess && pointer) {
    std::lock_guard lock(mutex);
    ledger().note_made(*pointer, bytes);
    if (in_call) blocks().note_made(*pointer, bytes);
  }
  return status;
}

/// Every cudaFree once the link wraps it.
cudaError_t __wrap_cudaFree(void* pointer) {
  using namespace cugrade::runner;
  std::size_t bytes = 0;
  KeptAllocations::Free what;
  // Why a failed cudaFree failed (api_failures.hpp; the CPU runner's executor says it itself).
  const auto failed = [pointer](cudaError_t status) {
#ifndef CUGRADE_CPU_RUNNER
    if (status != cudaSuccess) note_api_reason("cudaFree", status, free_failure_reason(pointer_facts(pointer)));
#else
    (void)pointer;
#endif
    return status;
  };
  {
    std::lock_guard lock(mutex);
    what = blocks().on_free(pointer, timed_calls > 0, bytes);
    if (what != KeptAllocations::Free::double_free) ledger().note_freed(pointer);
  }
  switch (what) {
    case KeptAllocations::Free::real:
      return failed(__real_cudaFree(pointer));
    case KeptAllocations::Free::double_free:
      return failed(cudaErrorInvalidValue);
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

#ifndef CUGRADE_CPU_RUNNER
/// Every cudaMallocManaged: managed memory lives on the GPU once touched there, so it counts.
cudaError_t __wrap_cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags) {
  using namespace cugrade::runner;
  if (!admitted("cudaMallocManaged", bytes)) return refused();
  const cudaError_t status = __real_cudaMallocManaged(pointer, bytes, flags);
  return noted(status, pointer ? *pointer : nullptr, bytes);
}

cudaError_t __wrap_cudaMallocPitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  using namespace cugrade::runner;
  if (!admitted("cudaMallocPitch", pitched_bytes(width, height, 1))) return refused();
  const cudaError_t status = __real_cudaMallocPitch(pointer, pitch, width, height);
  if (status != cudaSuccess || !pointer || !pitch) return status;
  return noted(status, *pointer, static_cast<std::uint64_t>(*pitch) * height);
}

cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
  using namespace cugrade::runner;
  if (!admitted("cudaMalloc3D", pitched_bytes(extent.width, extent.height, extent.depth))) return refused();
  const cudaError_t status = __real_cudaMalloc3D(pitched, extent);
  if (status != cudaSuccess || !pitched) return status;
  return noted(status, pitched->ptr, static_cast<std::uint64_t>(pitched->pitch) * extent.height * extent.depth);
}

cudaError_t __wrap_cudaMallocAsync(void** pointer, size_t bytes, cudaStream_t stream) {
  using namespace cugrade::runner;
  if (!admitted("cudaMallocAsync", bytes)) return refused();
  const cudaError_t status = __real_cudaMallocAsync(pointer, bytes, stream);
  return noted(status, pointer ? *pointer : nullptr, bytes);
}

cudaError_t __wrap_cudaFreeAsync(void* pointer, cudaStream_t stream) {
  cugrade::runner::note_freed(pointer);
  return __real_cudaFreeAsync(pointer, stream);
}

/// The device heap (malloc in kernels), the printf buffer and the threads' stacks are GPU memory
/// the runtime reserves for the process: each counts as what it is set to (a stack, for every
/// thread the GPU can hold at once).
cudaError_t __wrap_cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  using namespace cugrade::runner;
  std::uint64_t bytes = value;
  const char* name = nullptr;
  if (limit == cudaLimitMallocHeapSize) name = "the device heap";
  if (limit == cudaLimitPrintfFifoSize) name = "the printf buffer";
  if (limit == cudaLimitStackSize) {
    name = "the threads' stacks";
    int device = 0, processors = 0, threads = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    bytes = static_cast<std::uint64_t>(value) * static_cast<std::uint64_t>(processors) * static_cast<std::uint64_t>(threads);
  }
  if (!name) return __real_cudaDeviceSetLimit(limit, value);
  std::uint64_t before = 0;
  {
    std::unique_lock lock(mutex);
    before = ledger().reserved(name);
    if (!ledger().reserve("cudaDeviceSetLimit", name, bytes)) {
      lock.unlock();
      return refused();
    }
  }
  const cudaError_t status = __real_cudaDeviceSetLimit(limit, value);
  if (status != cudaSuccess) {  // the runtime kept what it had
    std::lock_guard lock(mutex);
    ledger().reserve("cudaDeviceSetLimit", name, before);
  }
  return status;
}
#endif
}
