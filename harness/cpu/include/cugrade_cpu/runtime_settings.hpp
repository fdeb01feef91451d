#pragma once
// Runtime API calls that tune or query a GPU rather than compute: real submissions make them
// (NVIDIA's samples, SGEMM tutorials), and on the CPU backend they have nothing to tune, so they
// are accepted and answered plausibly. Calls that would need what the CPU backend lacks
// (explicit cudaLaunchKernel, graphs) are declared so that a submission that merely contains
// them compiles, and end with cudaErrorNotSupported and a sentence naming them when reached.
#include <cstddef>
#include <cstring>
#include <string>

#include "runtime_api.hpp"
#include "runtime_types.hpp"
#include "vector_types.hpp"

/// How much of the unified L1/shared memory a kernel prefers as shared memory, in percent.
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0,
};

/// Shared-memory bank widths of older GPUs (accepted and ignored).
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2,
};

/// Device limits for cudaDeviceSetLimit / cudaDeviceGetLimit.
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06,
};

#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10

/// What cudaFuncGetAttributes reports about a kernel.
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
  int maxDynamicSharedSizeBytes, preferredShmemCarveout;
};

namespace cugrade_cpu {
/// Records that the submission reached `call`, which the CPU backend cannot run, with a
/// sentence naming it and what to do (the case's message); returns cudaErrorNotSupported.
cudaError_t not_supported(const char* call, const char* advice);
}  // namespace cugrade_cpu

/// Accepted and ignored (there is no bank width to set).
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
/// Accepted and ignored.
template <class T> cudaError_t cudaFuncSetSharedMemConfig(T*, cudaSharedMemConfig) { return cudaSuccess; }
/// Accepted and ignored (the CPU backend has no device flags).
inline cudaError_t cudaSetDeviceFlags(unsigned int) { return cudaSuccess; }
/// Accepted and ignored.
inline cudaError_t cudaDeviceSetLimit(cudaLimit, std::size_t) { return cudaSuccess; }
/// A plausible value: the stack size of a CUDA thread here (256 KiB), else 0.
inline cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  *value = limit == cudaLimitStackSize ? 256 * 1024 : 0;
  return cudaSuccess;
}
/// Device 0 is the only one.
inline cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  *device = 0;
  return cudaSuccess;
}
/// A plausible description: no registers or local memory to count; 1024 threads per block.
template <class T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T*) {
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = 1024;
  attributes->ptxVersion = attributes->binaryVersion = 75;
  attributes->maxDynamicSharedSizeBytes = 48 * 1024;
  attributes->preferredShmemCarveout = cudaSharedmemCarveoutDefault;
  return cudaSuccess;
}
/// As many blocks as fit 2048 threads per multiprocessor (what occupancy code divides by).
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T*, int block_size, std::size_t = 0) {
  *blocks = block_size > 0 ? (2048 / block_size > 32 ? 32 : 2048 / block_size) : 0;
  return cudaSuccess;
}
/// A 256-thread block, and enough of them to fill the device description's multiprocessors.
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, T, std::size_t = 0, int limit = 0) {
  *block = limit > 0 && limit < 256 ? limit : 256;
  *min_grid = 8 * (2048 / *block);
  return cudaSuccess;
}
/// Rows of `width` bytes, `pitch` apart: here the pitch is the width.
inline cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  *pitch = width;
  return cudaMalloc(pointer, width * height);
}
/// The typed overload.
template <class T> cudaError_t cudaMallocPitch(T** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width, height);
}
/// Copies `height` rows of `width` bytes, each through cudaMemcpy (so a bad pointer is reported).
inline cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                                std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
  for (std::size_t row = 0; row < height; ++row) {
    cudaError_t e = cudaMemcpy(static_cast<char*>(dst) + row * dpitch,
                               static_cast<const char*>(src) + row * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
/// Accepted and ignored (every call is synchronous already).
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0) { return cudaSuccess; }
/// Every operation has finished when it returns.
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
/// Accepted (page-locking changes nothing here).
inline cudaError_t cudaHostRegister(void*, std::size_t, unsigned int) { return cudaSuccess; }
/// Accepted.
inline cudaError_t cudaHostUnregister(void*) { return cudaSuccess; }

/// Not supported: a launch through cudaLaunchKernel (write `kernel<<<grid, block>>>(args)`).
template <class T>
cudaError_t cudaLaunchKernel(T*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = 0) {
  return cugrade_cpu::not_supported("cudaLaunchKernel", "write the launch as kernel<<<grid, block>>>(arguments)");
}
/// Not supported: cooperative launches (grid-wide synchronisation).
template <class T>
cudaError_t cudaLaunchCooperativeKernel(T*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = 0) {
  return cugrade_cpu::not_supported("cudaLaunchCooperativeKernel",
                                    "grid-wide synchronisation needs a GPU; split the kernel in two launches");
}
