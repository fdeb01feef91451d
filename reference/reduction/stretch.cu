// Stretch reference of assignment reduction (beyond the lecture): a sum that runs at the speed
// the GPU can read memory. Harris's kernel 7 taken to its end:
//  - 128-bit loads: each thread reads int4s (four ints per instruction) in a grid-stride loop,
//    two of them per iteration so that two loads are in flight before the first add;
//  - the grid is sized from the GPU (8 resident blocks of 256 threads per SM), so every SM is
//    kept busy and each thread adds many elements;
//  - the block's sum is formed with warp shuffles (no shared-memory tree, one barrier) and
//    added to out[0] with one 64-bit atomicAdd per block: no second launch.
// A thread's sum is a long long: it may add far more than 2^21 ints of up to ±1000. The int4
// path needs `in` on a 16-byte boundary (cudaMalloc's pointers are); the last n % 4 elements,
// or all of them for a misaligned pointer, are added one by one.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cstdint>
#include <cuda_runtime.h>

constexpr unsigned int STRETCH_REDUCE_THREADS = 256;
constexpr unsigned int STRETCH_REDUCE_BLOCKS_PER_SM = 8;

__global__ void reduceStretchKernel(const int* in, long long* out, size_t n, bool vector_ok) {
  const size_t thread = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  long long sum = 0;
  size_t scalar_from = 0;  // where the one-by-one tail starts
  if (vector_ok) {
    const int4* quads = reinterpret_cast<const int4*>(in);
    const size_t count = n / 4;
    size_t i = thread;
    for (; i + threads < count; i += 2 * threads) {
      const int4 a = quads[i];
      const int4 b = quads[i + threads];
      sum += static_cast<long long>(a.x) + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
    }
    if (i < count) {
      const int4 a = quads[i];
      sum += static_cast<long long>(a.x) + a.y + a.z + a.w;
    }
    scalar_from = count * 4;
  }
  for (size_t i = scalar_from + thread; i < n; i += threads) sum += in[i];

  // Warp sums by shuffles, then the first warp adds the block's warp sums.
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ long long warp_sums[STRETCH_REDUCE_THREADS / 32];
  const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    long long block_sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
      block_sum += __shfl_down_sync(0xffffffffu, block_sum, offset);
    // CUDA's 64-bit atomicAdd is on unsigned long long; two's complement addition wraps the same
    // way, so the signed total comes out right.
    if (lane == 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(block_sum));
  }
}

void reduce_stretch(const int* in, long long* out, int n) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms < 1) sms = 1;
  // No more blocks than there are int4s to read: small inputs need only a few.
  const size_t wanted = (static_cast<size_t>(n) / 4 + STRETCH_REDUCE_THREADS - 1) / STRETCH_REDUCE_THREADS;
  size_t blocks = static_cast<size_t>(sms) * STRETCH_REDUCE_BLOCKS_PER_SM;
  if (wanted < blocks) blocks = wanted;
  if (blocks < 1) blocks = 1;
  const bool vector_ok = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  // out holds garbage: the blocks add into it, so it starts at 0 (same stream, so in order).
  cudaMemsetAsync(out, 0, sizeof(long long));
  reduceStretchKernel<<<static_cast<unsigned int>(blocks), STRETCH_REDUCE_THREADS>>>(
      in, out, static_cast<size_t>(n), vector_ok);
}
