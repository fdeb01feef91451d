#pragma once
// The CUDA runtime API of the CPU backend (executor/runtime_api.cpp, executor/memory.cpp).
// Everything is synchronous: a launch has finished when it returns, so streams and events only
// keep CUDA's bookkeeping (and its error codes) intact.
#include <cstddef>

#include "runtime_types.hpp"

/// Allocates device memory: its own pages with a PROT_NONE guard page right after the end, so an
/// out-of-bounds access faults and is reported (executor/memory.cpp).
cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
/// Frees memory from cudaMalloc; a later access is reported as a use after cudaFree.
cudaError_t cudaFree(void* pointer);
/// Page-locked host memory (ordinary host memory here, usable from kernels as in CUDA).
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes);
/// cudaMallocHost with flags (ignored).
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int flags);
/// Frees memory from cudaMallocHost / cudaHostAlloc.
cudaError_t cudaFreeHost(void* pointer);
/// Managed memory: device memory the host may also touch.
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int flags = 1);
/// Copies bytes; device ranges must lie inside one allocation, or cudaErrorInvalidValue.
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
/// cudaMemcpy (synchronous here).
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
/// Fills device memory with a byte value.
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
/// cudaMemset (synchronous here).
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream = 0);
/// Sets `height` rows of `width` bytes, `pitch` bytes apart, to a byte value (one range check).
cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height);
/// Free and total "device" memory (the host's).
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

/// Copies host data into a __constant__ or __device__ variable.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice);
/// Copies a __constant__ or __device__ variable to host memory.
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
/// The address of a __device__ variable.
namespace cugrade_cpu {
/// Lets kernels receive a pointer to a __device__ variable (see check_pointer_argument).
void register_symbol(const void* address, std::size_t bytes);
}  // namespace cugrade_cpu
template <class T> cudaError_t cudaGetSymbolAddress(void** pointer, const T& symbol) {
  *pointer = const_cast<T*>(&symbol);
  cugrade_cpu::register_symbol(*pointer, sizeof(T));
  return cudaSuccess;
}

/// The last error of any call, reset to cudaSuccess (a sticky error stays).
cudaError_t cudaGetLastError();
/// The last error, without resetting it.
cudaError_t cudaPeekAtLastError();
/// CUDA's description of an error; for an error the executor diagnosed (an out-of-bounds
/// access, barrier divergence) the description names the kernel and what went wrong.
const char* cudaGetErrorString(cudaError_t error);
/// The error's enumerator name ("cudaErrorInvalidValue").
const char* cudaGetErrorName(cudaError_t error);

/// Waits for all work (none is pending here) and returns any sticky error.
cudaError_t cudaDeviceSynchronize();
/// Forgets every allocation's error state (a sticky error included).
cudaError_t cudaDeviceReset();
/// Always one device.
cudaError_t cudaGetDeviceCount(int* count);
/// Device 0 only.
cudaError_t cudaSetDevice(int device);
/// Always 0.
cudaError_t cudaGetDevice(int* device);
/// The fake device "cugrade CPU backend" with a real GPU's launch limits.
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
/// One attribute of the fake device.
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);
/// 13000 (the CUDA version the shim follows).
cudaError_t cudaDriverGetVersion(int* version);
/// 13000.
cudaError_t cudaRuntimeGetVersion(int* version);
/// Accepted and ignored.
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);

/// Streams: handles only (every operation is synchronous).
cudaError_t cudaStreamCreate(cudaStream_t* stream);
/// cudaStreamCreate with flags (ignored).
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
/// Releases a stream handle.
cudaError_t cudaStreamDestroy(cudaStream_t stream);
/// Returns the sticky error, if any.
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

/// Events: host clock readings.
cudaError_t cudaEventCreate(cudaEvent_t* event);
/// cudaEventCreate with flags (ignored).
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
/// Releases an event.
cudaError_t cudaEventDestroy(cudaEvent_t event);
/// Reads the host clock into the event.
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
/// Returns at once.
cudaError_t cudaEventSynchronize(cudaEvent_t event);
/// Milliseconds between two recorded events.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
/// cudaSuccess once recorded.
cudaError_t cudaEventQuery(cudaEvent_t event);

namespace cugrade_cpu {
/// Raises the dynamic shared memory a launch may ask for (what cudaFuncSetAttribute sets).
void set_max_dynamic_shared(int bytes);
/// Whether [pointer, pointer + bytes) lies inside memory kernels may access (device, managed,
/// page-locked host memory, or a __device__/__constant__ variable the host registered).
bool is_device_range(const void* pointer, std::size_t bytes);
}  // namespace cugrade_cpu

/// Only cudaFuncAttributeMaxDynamicSharedMemorySize has an effect (for every kernel).
template <class T> cudaError_t cudaFuncSetAttribute(T*, cudaFuncAttribute attribute, int value) {
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) cugrade_cpu::set_max_dynamic_shared(value);
  return cudaSuccess;
}
/// Accepted and ignored.
template <class T> cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) { return cudaSuccess; }

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset,
                               cudaMemcpyKind) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  cugrade_cpu::register_symbol(&symbol, sizeof(T));  // device memory, as a copy's end (host_work.hpp)
  return cudaMemcpy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, bytes,
                    cudaMemcpyHostToHost);
}

template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset,
                                 cudaMemcpyKind) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  cugrade_cpu::register_symbol(&symbol, sizeof(T));  // device memory, as a copy's end (host_work.hpp)
  return cudaMemcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes, cudaMemcpyHostToHost);
}

/// The typed cudaMalloc overload CUDA's header also has.
template <class T> cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
/// The typed cudaMallocHost overload.
template <class T> cudaError_t cudaMallocHost(T** pointer, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
/// The overload of cuda_runtime.h that takes cudaHostAlloc's flags.
template <class T> cudaError_t cudaMallocHost(T** pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
/// The typed cudaHostAlloc overload.
template <class T> cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
/// The typed cudaMallocManaged overload.
template <class T> cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes, unsigned int flags = 1) {
  return cudaMallocManaged(reinterpret_cast<void**>(pointer), bytes, flags);
}

// Stream-ordered allocation and copies: the CPU backend runs every stream in order, at once.
/// cudaMalloc, as the stream would order it.
inline cudaError_t cudaMallocAsync(void** pointer, std::size_t bytes, cudaStream_t) { return cudaMalloc(pointer, bytes); }
/// The typed cudaMallocAsync overload.
template <class T> cudaError_t cudaMallocAsync(T** pointer, std::size_t bytes, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(pointer), bytes, stream);
}
/// cudaFree, as the stream would order it.
inline cudaError_t cudaFreeAsync(void* pointer, cudaStream_t) { return cudaFree(pointer); }
/// cudaMemcpyToSymbol, as the stream would order it.
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
/// cudaMemcpyFromSymbol, as the stream would order it.
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
/// Mapped host memory (cudaHostAllocMapped) is the host's own here: its device pointer is itself.
inline cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int) {
  if (!device || !host) return cudaErrorInvalidValue;
  *device = host;
  return cudaSuccess;
}
/// The typed cudaHostGetDevicePointer overload.
template <class T> cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
}

namespace cugrade_cpu {
/// Notes the source line of the runtime call about to be made (the macros below), so that its
/// error names the student's line; the executor reads it only when the call fails.
void note_api_site(const char* file, int line) noexcept;
}  // namespace cugrade_cpu

// Why macros: a failed cudaMemcpy on a GPU says only "invalid argument", and a student who does
// not check it sees the error at the next check, blamed on the last kernel. Each call in code
// compiled against these headers first notes its file and line (the pre-pass keeps the
// student's, through #line); the executor itself defines the functions and is compiled without.
// Parenthesised comma expressions: they stay one expression wherever a call can stand.
#ifndef CUGRADE_CPU_EXECUTOR
#define cudaMalloc(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaMalloc(__VA_ARGS__))
#define cudaFree(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaFree(__VA_ARGS__))
#define cudaMemcpy(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaMemcpy(__VA_ARGS__))
#define cudaMemcpyAsync(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaMemcpyAsync(__VA_ARGS__))
#define cudaMemset(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaMemset(__VA_ARGS__))
#define cudaMemsetAsync(...) (::cugrade_cpu::note_api_site(__FILE__, __LINE__), ::cudaMemsetAsync(__VA_ARGS__))
#endif
