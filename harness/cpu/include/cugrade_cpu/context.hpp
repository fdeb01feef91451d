#pragma once
// Where a kernel's built-in variables (threadIdx, blockIdx, blockDim, gridDim) come from: the
// executor points `current_thread` at the running fiber's context, and copies the built-ins out
// of it, before resuming it.
#include <cstdint>

#include "vector_types.hpp"

namespace cugrade_cpu {

/// What one CUDA thread of a running kernel can ask about itself.
struct ThreadContext {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned lane = 0;                  ///< threadIdx linearised, modulo 32
  char* dynamic_shared = nullptr;     ///< the block's extern __shared__ buffer
  std::uint64_t grid_rank = 0;        ///< linear block index × threads per block + linear thread index
  const std::uint64_t* barriers = nullptr;  ///< how many __syncthreads() its block has passed
  unsigned exchanges = 0;             ///< successful atomicCAS and atomicExch calls (a lock may be held)
};

/// The context of the fiber running on this worker thread (null outside a kernel).
/// constinit: no dynamic initialisation, so every access is a plain TLS load.
extern constinit thread_local ThreadContext* current_thread;

/// The current context; only meaningful inside a kernel.
inline ThreadContext& context() { return *current_thread; }

/// The block's dynamic shared memory (the third launch parameter), as T*.
template <class T> T* dynamic_shared() { return reinterpret_cast<T*>(current_thread->dynamic_shared); }

}  // namespace cugrade_cpu

// The built-in variables of the CUDA thread running on this worker, copied from its context by
// the executor before it resumes the thread. Why variables and not macros for the context's
// fields: host code may declare its own `dim3 blockDim(16, 16), gridDim(...)` (NVIDIA's samples
// do), which a macro would turn into nonsense; a local variable simply hides these.
/// threadIdx of the running CUDA thread.
extern constinit thread_local uint3 threadIdx;
/// blockIdx of the running CUDA thread.
extern constinit thread_local uint3 blockIdx;
/// blockDim of the running kernel.
extern constinit thread_local dim3 blockDim;
/// gridDim of the running kernel.
extern constinit thread_local dim3 gridDim;
/// CUDA's warp size; a constant here, as on every NVIDIA GPU so far.
constexpr int warpSize = 32;
