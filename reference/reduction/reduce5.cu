// Reference for step "reduce5" of assignment reduction: Harris's kernel 5, kernel 4 with the
// last warp unrolled (lectures 001 and 003), with bounds checks on both loads so that n need not
// be a multiple of 2·blockDim.x. Relaunched over the partial sums until one is left.
// As printed, the unrolled warp relies on the 32 threads running in lockstep (and on a volatile
// pointer). Since Volta, the threads of a warp are scheduled independently and that is
// undefined behaviour; here every unrolled step reads, then __syncwarp(), writes, __syncwarp().
// Partial sums are long long from the first load on: a block's sum of ints in [-1000, 1000]
// would fit an int, but the total of 2^26 of them (the timed size) need not.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "relaunch.cuh"

#include <cuda_runtime.h>

constexpr unsigned int REDUCE5_THREADS = 256;

// Adds sdata[0..63] into sdata[0] with the 32 threads of the first warp (blockDim.x >= 64).
__device__ void reduce5Warp(long long* sdata, unsigned int tid) {
  long long v = sdata[tid];
#pragma unroll
  for (unsigned int s = 32; s > 0; s >>= 1) {
    v += sdata[tid + s];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
}

// T is int for the first level (the input) and long long for the later ones (the partial sums).
template <class T>
__global__ void reduce5Kernel(const T* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];

  // The first level of the reduction, reading from global memory and writing to shared memory;
  // each block covers 2·blockDim.x elements, and elements past the end count as 0.
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  long long sum = (i < n) ? static_cast<long long>(g_idata[i]) : 0;
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();

  // Sequential addressing down to 64 elements: every warp but the first is done after it.
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  // The last warp, unrolled: no __syncthreads() and no `tid < s` (it would save nothing), but a
  // __syncwarp() between each read and write, so that no lane overwrites a value another lane
  // has not read yet.
  if (tid < 32) reduce5Warp(sdata, tid);

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void reduce_5(const int* in, long long* out, int n) {
  // Each block reduces 2 * REDUCE5_THREADS elements (two per thread, added during the load).
  relaunch_until_one(reduce5Kernel<int>, reduce5Kernel<long long>,
                     REDUCE5_THREADS, 2 * REDUCE5_THREADS, in, out, n);
}
