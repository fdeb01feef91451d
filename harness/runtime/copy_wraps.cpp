// The copying CUDA calls are wrapped by the linker (--wrap=cudaMemcpy,...), as the kernel
// launches (launch_tracking.cpp) and the allocations (allocation_wraps.cpp) are: each calls the
// real X (__real_X) and, while a check call is watched (host_work.hpp), tells it what was copied
// where. Why the per-thread names too: under --default-stream per-thread the headers turn
// cudaMemcpy into cudaMemcpy_ptds (cudaMemcpyAsync into cudaMemcpyAsync_ptsz), and a copy back
// to a host output that went unseen would read as host code's write.
#include <cuda_runtime.h>

#include <algorithm>

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
/// while a check call is watched: the host output's bytes are read at once).
cudaError_t noted(cudaError_t result, void* dst, const void* src, std::size_t span, cudaStream_t* stream) {
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

const bool reader_registered = (cugrade::runner::set_device_reader(read_device), true);

}  // namespace

extern "C" {
cudaError_t __wrap_cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy(dst, src, bytes, kind), dst, src, bytes, nullptr);
}
cudaError_t __wrap_cudaMemcpy_ptds(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy_ptds(dst, src, bytes, kind), dst, src, bytes, nullptr);
}
cudaError_t __wrap_cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpyAsync(dst, src, bytes, kind, stream), dst, src, bytes, &stream);
}
cudaError_t __wrap_cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return noted(__real_cudaMemcpyAsync_ptsz(dst, src, bytes, kind, stream), dst, src, bytes, &stream);
}
cudaError_t __wrap_cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), nullptr);
}
cudaError_t __wrap_cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind) {
  return noted(__real_cudaMemcpy2D_ptds(dst, dpitch, src, spitch, width, height, kind), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), nullptr);
}
cudaError_t __wrap_cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), &stream);
}
cudaError_t __wrap_cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                          size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return noted(__real_cudaMemcpy2DAsync_ptsz(dst, dpitch, src, spitch, width, height, kind, stream), dst, src,
               std::max(span_2d(dpitch, width, height), span_2d(spitch, width, height)), &stream);
}
}
