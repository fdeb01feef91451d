// cudaMemcpy and cudaMemset of the CPU backend: each end checked against the allocations
// (memory.cpp), with the sentence a student needs where it is not device memory or too short,
// and each copy recorded for the runner's host-work evidence.
#include <cstring>
#include <string>

#include "api_failure_text.hpp"
#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"
#include "memory_registry.hpp"

// The runner's record of a check call's copies (harness/runtime/host_work.hpp); weak: a program
// linked without the runner has none.
extern "C" __attribute__((weak)) void cugrade_runner_note_copy(void* dst, const void* src, std::size_t bytes,
                                                               int dst_on_device, int src_on_device);

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (cudaError_t sticky = cugrade_cpu::sticky_error()) return sticky;
  using cugrade_cpu::record_api_error;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return record_api_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpy", "the direction is not a cudaMemcpyKind");
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src)
    return record_api_error(cudaErrorInvalidValue, "cudaMemcpy", std::string("the ") + (dst ? "source" : "destination") + " is a null pointer");
  bool device_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool device_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const char* kind_text = kind == cudaMemcpyHostToDevice ? "cudaMemcpyHostToDevice"
                          : kind == cudaMemcpyDeviceToHost ? "cudaMemcpyDeviceToHost"
                                                           : "cudaMemcpyDeviceToDevice";
  for (int end = 0; end < 2; ++end) {
    const bool on_device = end == 0 ? device_dst : device_src;
    const void* p = end == 0 ? dst : src;
    if (!on_device || cugrade_cpu::is_device_range(p, bytes)) continue;
    const std::string what = end == 0 ? "destination" : "source";
    cugrade::runner::PointerFacts released;
    released.freed = true;
    std::string why = cugrade_cpu::freed_memory(p) ? cugrade::runner::device_end_reason(what, released, bytes, "copied")
                      : cugrade_cpu::is_device_range(p, 1)
        ? "the " + what + " has fewer than the " + std::to_string(bytes) + " bytes copied (the count is in bytes: n * sizeof(element))"
        : "the direction is " + std::string(kind_text) + ", but the " + what + " is not memory from cudaMalloc (are the pointers or the direction swapped?)";
    return record_api_error(cudaErrorInvalidValue, "cudaMemcpy", why);
  }
  std::memmove(dst, src, bytes);
  if (cugrade_runner_note_copy)
    cugrade_runner_note_copy(dst, src, bytes, cugrade_cpu::kernel_memory(dst), cugrade_cpu::kernel_memory(src));
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (cudaError_t sticky = cugrade_cpu::sticky_error()) return sticky;
  if (bytes == 0) return cudaSuccess;
  if (!cugrade_cpu::is_device_range(pointer, bytes))
    return cugrade_cpu::record_api_error(cudaErrorInvalidValue, "cudaMemset",
        cugrade_cpu::is_device_range(pointer, 1)
            ? "the memory has fewer than the " + std::to_string(bytes) + " bytes set (the count is in bytes)"
            : std::string("the pointer is not memory from cudaMalloc"));
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  if (cudaError_t sticky = cugrade_cpu::sticky_error()) return sticky;
  if (width == 0 || height == 0) return cudaSuccess;
  if (width > pitch && height > 1)
    return cugrade_cpu::record_api_error(cudaErrorInvalidValue, "cudaMemset2D", "the width is larger than the pitch");
  if (!cugrade_cpu::is_device_range(pointer, pitch * (height - 1) + width))
    return cugrade_cpu::record_api_error(cudaErrorInvalidValue, "cudaMemset2D", "the rows reach past the allocation");
  for (std::size_t row = 0; row < height; ++row) std::memset(static_cast<char*>(pointer) + row * pitch, value, width);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}
