// The copying CUDA calls (and cudaMemset's, api_failures.hpp) are wrapped by the linker (--wrap=cudaMemcpy,...), as the kernel
// launches (launch_tracking.cpp) and the allocations (allocation_wraps.cpp) are: each calls the
// real X (__real_X) and, while a check call is watched (host_work.hpp), tells it what was copied
// where. Why the per-thread names too: under --default-stream per-thread the headers turn
// cudaMemcpy into cudaMemcpy_ptds (cudaMemcpyAsync into cudaMemcpyAsync_ptsz), and a copy back
// to a host output that went unseen would read as host code's write.
#include <cuda_runtime.h>

#include <algorithm>

#include "api_failures.hpp"
#include "host_work.hpp"

extern "C" {
// Weak, as in launch_tracking.cpp: a link that does not wrap these leaves them null and links.
__attribute__((weak)) cudaError_t __real_cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);
__attribute__((weak)) cudaError_t __real_cudaMemcpy_ptds(void*, const void*, size_t, cudaMemcpyKind);
__attribute__((weak)) cudaError_t __real_cudaMemcpyAsync(void*, const void*, size_t, cudaMemcpyKind, cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaMemcpyAsync_ptsz(void*, const void*, size_t, cudaMemcpyKind, cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaMemcpy2D(void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind);
__attribute__((weak)) cudaError_t __real_cudaMemcpy2D_ptds(void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind);
__attribute__((weak)) cudaError_t __real_cudaMemcpy2DAsync(void*, size_t, const void*, size_t, size_t, size_t, cudaMemcpyKind,
                                                           cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaMemcpy2DAsync_ptsz(void*, size_t, const void*, size_t, size_t, size_t,
                                                                cudaMemcpyKind, cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaMemset(void*, int, size_t);
__attribute__((weak)) cudaError_t __real_cudaMemset_ptds(void*, int, size_t);
__attribute__((weak)) cudaError_t __real_cudaMemsetAsync(void*, int, size_t, cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaMemsetAsync_ptsz(void*, int, size_t, cudaStream_t);
}

namespace {

/// Whether `p` is memory a kernel can have written: cudaMalloc'd, managed or a __device__
/// variable; not pageable or pinned host memory.
bool on_device(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();  // an unknown pointer is host memory; the failed query is not the student's error
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

/// Tells host_work.hpp of a copy that succeeded; an asynchronous one is waited for first (only
/// while a check call is watched: the host output's bytes are read at once). Of one that failed,
/// tells api_failures.hpp why.
cudaError_t noted(cudaError_t result, void* dst, const void* src, std::size_t span, cudaStream_t* stream,
                  const char* call, cudaMemcpyKind kind) {
  using namespace cugrade::runner;
  if (result != cudaSuccess && own_call_error(result))
    note_api_reason(call, result, copy_failure_reason(kind, pointer_facts(dst), pointer_facts(src), span));
  if (result != cudaSuccess || span == 0 || !cugrade::runner::watching_copies()) return result;
  if (stream && cudaStreamSynchronize(*stream) != cudaSuccess) return result;  // its error stays the stream's
  cugrade::runner::note_copy(dst, src, span, on_device(dst), on_device(src));
  return result;
}

std::size_t span_2d(std::size_t pitch, std::size_t width, std::size_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + width;
}

/// host_work.hpp's reader of device memory on a GPU: the real cudaMemcpy where the link wraps it
/// (the wrapped one would report this copy too), the plain one where it does not.
bool read_device(void* host, const void* device, std::size_t bytes) {
  const cudaError_t error = __real_cudaMemcpy ? __real_cudaMemcpy(host, device, bytes, cudaMemcpyDefault)
                                              : cudaMemcpy(host, device, bytes, cudaMemcpyDefault);
  if (error == cudaSuccess) return true;
  cudaGetLastError();  // the watch's failed read is not the student's error
  return false;
}

/// A cudaMemset's result; of one that failed, tells api_failures.hpp why.
cudaError_t set_noted(cudaError_t result, const void* pointer, std::size_t bytes, const char* call) {
  using namespace cugrade::runner;
  if (result != cudaSuccess && own_call_error(result))
    note_api_reason(call, result, set_failure_reason(pointer_facts(pointer), bytes));
  return result;
}

const bool reader_registered = (cugrade::runner::set_device_reader(read_device), true);

}  // namespace

extern "C" {
cudaError_t __wrap_cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy(dst, src, bytes, kind), dst, src, bytes, nullptr, "cudaMemcpy", kind);
}
cudaError_t __wrap_cudaMemcpy_ptds(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy_ptds(dst, src, bytes, kind), dst, src, bytes, nullptr, "cudaMemcpy", kind);
}
cudaError_t __wrap_cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpyAsync(dst, src, bytes, kind, stream), dst, src, bytes, &stream, "cudaMemcpyAsync", kind);
}
cudaError_t __wrap_cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return noted(__real_cudaMemcpyAsync_ptsz(dst, src, bytes, kind, stream), dst, src, bytes, &stream, "cudaMemcpyAsync", kind);
}
cudaError_t __wrap_cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), nullptr, "cudaMemcpy2D", kind);
}
cudaError_t __wrap_cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy2D_ptds(dst, dpitch, src, spitch, width, height, kind), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), nullptr, "cudaMemcpy2D", kind);
}
cudaError_t __wrap_cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), &stream, "cudaMemcpy2DAsync", kind);
}
cudaError_t __wrap_cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                          size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpy2DAsync_ptsz(dst, dpitch, src, spitch, width, height, kind, stream), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), &stream, "cudaMemcpy2DAsync", kind);
}
// The cudaMemset family: wrapped only to say why one failed (api_failures.hpp).
cudaError_t __wrap_cudaMemset(void* pointer, int value, size_t bytes) {
  return set_noted(__real_cudaMemset(pointer, value, bytes), pointer, bytes, "cudaMemset");
}
cudaError_t __wrap_cudaMemset_ptds(void* pointer, int value, size_t bytes) {
  return set_noted(__real_cudaMemset_ptds(pointer, value, bytes), pointer, bytes, "cudaMemset");
}
cudaError_t __wrap_cudaMemsetAsync(void* pointer, int value, size_t bytes, cudaStream_t stream) {
  return set_noted(__real_cudaMemsetAsync(pointer, value, bytes, stream), pointer, bytes, "cudaMemsetAsync");
}
cudaError_t __wrap_cudaMemsetAsync_ptsz(void* pointer, int value, size_t bytes, cudaStream_t stream) {
  return set_noted(__real_cudaMemsetAsync_ptsz(pointer, value, bytes, stream), pointer, bytes, "cudaMemsetAsync");
}
}
