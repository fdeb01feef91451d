#pragma once
// Where a kernel's built-in variables (threadIdx, blockIdx, blockDim, gridDim) come from: the
// executor points `current_thread` at the running fiber's context before resuming it.
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
};

/// The context of the fiber running on this worker thread (null outside a kernel).
/// constinit: no dynamic initialisation, so every access is a plain TLS load.
extern constinit thread_local ThreadContext* current_thread;

/// The current context; only meaningful inside a kernel.
inline ThreadContext& context() { return *current_thread; }

/// The block's dynamic shared memory (the third launch parameter), as T*.
template <class T> T* dynamic_shared() { return reinterpret_cast<T*>(current_thread->dynamic_shared); }

}  // namespace cugrade_cpu

#define threadIdx (::cugrade_cpu::context().thread_idx)
#define blockIdx (::cugrade_cpu::context().block_idx)
#define blockDim (::cugrade_cpu::context().block_dim)
#define gridDim (::cugrade_cpu::context().grid_dim)
/// CUDA's warp size; a constant here, as on every NVIDIA GPU so far.
constexpr int warpSize = 32;
