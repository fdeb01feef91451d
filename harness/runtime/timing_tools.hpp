#pragma once
// The two timing tools every timed call uses, in the bench's reference-only loop (time_task.cpp)
// and in the lock-step samples (serve_task.cpp): the L2 flush and the event pair.
#include <cuda_runtime.h>

#include <cstdint>

#include "task_context.hpp"

namespace cugrade::runner {

/// A buffer written before every sample so that each sample starts with a cold L2.
/// Why: an H100's L2 holds 50 MB; without the flush, the second call finds its inputs in L2 and
/// a memory-bound kernel looks faster than DRAM allows. Writing twice the L2 size evicts
/// everything the previous call left, for the student and the reference alike.
class L2Flush {
 public:
  L2Flush(TaskContext& context, std::int64_t requested_bytes) : context_(context) {
    bytes_ = static_cast<std::size_t>(requested_bytes);
    if (requested_bytes <= 0) {
      int device = 0, l2_bytes = 0;
      context_.check(cudaGetDevice(&device), "cudaGetDevice");
      context_.check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device),
                     "cudaDeviceGetAttribute (L2 cache size)");
      bytes_ = 2 * static_cast<std::size_t>(l2_bytes);
    }
    if (bytes_ > 0)
      context_.check(cudaMalloc(&buffer_, bytes_), "cudaMalloc (L2 flush buffer)");
  }
  ~L2Flush() {
    if (buffer_) cudaFree(buffer_);
  }
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  /// Overwrites the whole buffer (asynchronously, on the legacy default stream).
  void run() {
    if (buffer_) context_.check(cudaMemset(buffer_, ++value_ & 0xFF, bytes_), "cudaMemset (L2 flush)");
  }

 private:
  TaskContext& context_;
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int value_ = 0;
};

/// The two events around a timed call.
class EventPair {
 public:
  explicit EventPair(TaskContext& context) : context_(context) {
    context_.check(cudaEventCreate(&start_), "cudaEventCreate");
    context_.check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventPair() {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  cudaEvent_t start() const { return start_; }
  cudaEvent_t stop() const { return stop_; }
  /// Milliseconds between the two recorded events.
  double elapsed_ms() {
    float ms = 0.0f;
    context_.check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  TaskContext& context_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace cugrade::runner
