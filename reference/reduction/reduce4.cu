// Reference for step "reduce4" of assignment reduction: Harris's kernel 4, the first add during
// the load (each thread loads in[i] + in[i + blockDim.x], so half as many blocks), then kernel
// 3's sequential addressing, as printed in lectures 001 and 003, with bounds checks on both
// loads so that n need not be a multiple of 2·blockDim.x. Relaunched over the partial sums until
// one is left.
// Partial sums are long long from the first load on: a block's sum of ints in [-1000, 1000]
// would fit an int, but the total of 2^26 of them (the timed size) need not.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "relaunch.cuh"

#include <cuda_runtime.h>

constexpr unsigned int REDUCE4_THREADS = 256;

// T is int for the first level (the input) and long long for the later ones (the partial sums).
template <class T>
__global__ void reduce4Kernel(const T* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];

  // The first level of the reduction, reading from global memory and writing to shared memory;
  // each block covers 2·blockDim.x elements, and elements past the end count as 0.
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  long long sum = (i < n) ? static_cast<long long>(g_idata[i]) : 0;
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();

  // Sequential addressing, as in reduce3.
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void reduce_4(const int* in, long long* out, int n) {
  // Each block reduces 2 * REDUCE4_THREADS elements (two per thread, added during the load).
  relaunch_until_one(reduce4Kernel<int>, reduce4Kernel<long long>,
                     REDUCE4_THREADS, 2 * REDUCE4_THREADS, in, out, n);
}
