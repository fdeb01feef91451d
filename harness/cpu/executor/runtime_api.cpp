// Device, stream and event calls of the CPU backend. The device is a fake one named
// "cugrade CPU backend" with a real GPU's limits (compute capability 9.0), so code that sizes
// its launches from cudaGetDeviceProperties sees numbers it would see on a GPU.
#include <chrono>
#include <cstring>
#include <thread>

#include "cugrade_cpu/runtime_api.hpp"
#include "cugrade_cpu/runtime_settings.hpp"
#include "error_state.hpp"
#include "launch_limits.hpp"

struct CUstream_st {
  int unused = 0;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point time;
  bool recorded = false;
};

using cugrade_cpu::api_result;

namespace {

cudaDeviceProp fake_device() {
  cudaDeviceProp p{};
  std::strncpy(p.name, "cugrade CPU backend", sizeof p.name - 1);
  const auto& l = cugrade_cpu::launch_limits();
  std::size_t free_bytes = 0;
  cudaMemGetInfo(&free_bytes, &p.totalGlobalMem);
  p.sharedMemPerBlock = l.max_dynamic_shared_bytes;
  p.sharedMemPerBlockOptin = l.optin_shared_bytes;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = static_cast<int>(l.max_threads_per_block);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = static_cast<int>(l.max_block[i]);
    p.maxGridSize[i] = static_cast<int>(l.max_grid[i]);
  }
  p.clockRate = 1000000;
  p.totalConstMem = 65536;
  p.major = 9;
  p.minor = 0;
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 1;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 1000000;
  p.memoryBusWidth = 256;
  p.l2CacheSize = 4 * 1024 * 1024;  // small: the timing loop's L2 flush writes twice this much
  p.maxThreadsPerMultiProcessor = 2048;
  p.managedMemory = 1;
  p.maxBlocksPerMultiProcessor = 32;
  p.concurrentManagedAccess = 1;
  p.pageableMemoryAccess = 1;
  // The "device" is the host's memory: host atomics, host pointers and managed memory all work.
  p.hostNativeAtomicSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.pageableMemoryAccessUsesHostPageTables = 1;
  p.directManagedMemAccessFromHost = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.streamPrioritiesSupported = 1;
  p.singleToDoublePrecisionPerfRatio = 2;
  return p;
}

}  // namespace

cudaError_t cudaDeviceSynchronize() { return cugrade_cpu::sticky_error(); }

cudaError_t cudaDeviceReset() {
  cugrade_cpu::clear_errors();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return api_result(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return api_result(device == 0 ? cudaSuccess : cudaErrorInvalidDevice); }

cudaError_t cudaGetDevice(int* device) {
  if (!device) return api_result(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return api_result(cudaErrorInvalidValue);
  if (device != 0) return api_result(cudaErrorInvalidDevice);
  *prop = fake_device();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  if (!value) return api_result(cudaErrorInvalidValue);
  if (device != 0) return api_result(cudaErrorInvalidDevice);
  const cudaDeviceProp p = fake_device();
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    // Every memory is host memory here: mapped, managed and pageable access all work.
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrManagedMemory:
    case cudaDevAttrPageableMemoryAccess:
    case cudaDevAttrConcurrentManagedAccess: *value = 1; break;
    // No cooperative launch (grid-wide synchronisation): code that checks can take another path.
    case cudaDevAttrCooperativeLaunch: *value = 0; break;
    default: return api_result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return api_result(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (!stream) return api_result(cudaErrorInvalidValue);
  *stream = new CUstream_st();
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) { return cudaStreamCreate(stream); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return api_result(cudaErrorInvalidResourceHandle);
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cugrade_cpu::sticky_error(); }

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return api_result(cudaErrorInvalidValue);
  *event = new CUevent_st();
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) { return cudaEventCreate(event); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event) return api_result(cudaErrorInvalidResourceHandle);
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return api_result(cudaErrorInvalidResourceHandle);
  if (cudaError_t sticky = cugrade_cpu::sticky_error()) return sticky;
  event->time = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event) return api_result(cudaErrorInvalidResourceHandle);
  return cugrade_cpu::sticky_error();
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!event) return api_result(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return api_result(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) return api_result(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}

cudaError_t cugrade_cpu::not_supported(const char* call, const char* advice) {
  return record_sticky_error(cudaErrorNotSupported,
                             std::string(call) + " is not supported by the CPU backend: " + advice);
}
