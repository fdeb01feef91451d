// Reference for step "reduce7" of assignment reduction: Harris's kernel 7, many elements per
// thread (lecture 001: a grid-stride loop `while (i < n) { sum += v[i] + v[i+blockSize];
// i += gridSize; }` over a grid of bounded size), then reduce6's unrolled block reduction, with
// bounds checks so that n need not be a multiple of anything. Instead of a second launch over
// the block sums, each block adds its sum to out[0] with one atomicAdd (out is zeroed first).
// The last warp adds with warp shuffles: the printed lockstep warp is undefined behaviour since
// Volta. Each thread's sum is a long long: with a bounded grid, one thread may add up far more
// than 2^21 ints of up to ±1000.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

constexpr unsigned int REDUCE7_THREADS = 256;
// Enough blocks of 256 threads to fill any current GPU (an H100 runs 8 per SM × 132 SMs), few
// enough that each thread adds many elements.
constexpr unsigned int REDUCE7_MAX_BLOCKS = 1024;

// blockSize must equal blockDim.x, a power of two from 64 to 1024.
template <unsigned int blockSize>
__global__ void reduce7Kernel(const int* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];

  // Many elements per thread: two per step, one grid (2·blockSize·gridDim.x elements) apart.
  unsigned int tid = threadIdx.x;
  size_t i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  size_t gridSize = blockSize * 2 * static_cast<size_t>(gridDim.x);
  long long sum = 0;
  while (i < n) {
    sum += g_idata[i];
    if (i + blockSize < n) sum += g_idata[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();

  // reduce6's unrolled tree.
  if (blockSize >= 1024) {
    if (tid < 512) sdata[tid] += sdata[tid + 512];
    __syncthreads();
  }
  if (blockSize >= 512) {
    if (tid < 256) sdata[tid] += sdata[tid + 256];
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128) sdata[tid] += sdata[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    long long v = sdata[tid] + sdata[tid + 32];
    v += __shfl_down_sync(0xffffffffu, v, 16);
    v += __shfl_down_sync(0xffffffffu, v, 8);
    v += __shfl_down_sync(0xffffffffu, v, 4);
    v += __shfl_down_sync(0xffffffffu, v, 2);
    v += __shfl_down_sync(0xffffffffu, v, 1);
    // CUDA's 64-bit atomicAdd is on unsigned long long; two's complement addition wraps the same
    // way, so the signed total comes out right.
    if (tid == 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(g_odata), static_cast<unsigned long long>(v));
  }
}

void reduce_7(const int* in, long long* out, int n) {
  const unsigned int threads = REDUCE7_THREADS;
  unsigned int blocks = (static_cast<unsigned int>(n) + 2 * threads - 1) / (2 * threads);
  if (blocks > REDUCE7_MAX_BLOCKS) blocks = REDUCE7_MAX_BLOCKS;
  // out holds garbage: the blocks add into it, so it starts at 0 (same stream, so in order).
  cudaMemsetAsync(out, 0, sizeof(long long));
  reduce7Kernel<REDUCE7_THREADS><<<blocks, threads, threads * sizeof(long long)>>>(in, out, n);
}
