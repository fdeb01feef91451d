// Reference for step "reduce3" of assignment reduction: Harris's kernel 3, sequential addressing
// (the stride halves from blockDim.x/2, thread tid adds tid + s): no divergence, no bank
// conflicts, as printed in lectures 001 and 003, with a bounds check so that n need not be a
// multiple of the block. Relaunched over the partial sums until one is left.
// Partial sums are long long from the first load on: a block's sum of ints in [-1000, 1000]
// would fit an int, but the total of 2^26 of them (the timed size) need not.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "relaunch.cuh"

#include <cuda_runtime.h>

// The lectures use 128 (G80) to 512 threads; 256 is a good size on every GPU since.
constexpr unsigned int REDUCE3_THREADS = 256;

// T is int for the first level (the input) and long long for the later ones (the partial sums).
template <class T>
__global__ void reduce3Kernel(const T* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];

  // Each thread loads one element from global to shared memory; threads past the end load 0,
  // which adds nothing, so the tree below may always run over the whole block.
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? static_cast<long long>(g_idata[i]) : 0;
  __syncthreads();

  // Reduction in shared memory: the lower half adds the upper half, then the lower quarter the
  // next quarter, and so on (consecutive threads, consecutive addresses).
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  // Write the result of this block to global memory.
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void reduce_3(const int* in, long long* out, int n) {
  relaunch_until_one(reduce3Kernel<int>, reduce3Kernel<long long>,
                     REDUCE3_THREADS, REDUCE3_THREADS, in, out, n);
}
