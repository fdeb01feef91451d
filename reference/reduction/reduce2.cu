// Reference for step "reduce2" of assignment reduction: Harris's kernel 2, interleaved addressing
// with a strided index (`index = 2*s*tid`): no divergent branch, but shared-memory bank
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
constexpr unsigned int REDUCE2_THREADS = 256;

// T is int for the first level (the input) and long long for the later ones (the partial sums).
template <class T>
__global__ void reduce2Kernel(const T* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];

  // Each thread loads one element from global to shared memory; threads past the end load 0,
  // which adds nothing, so the tree below may always run over the whole block.
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? static_cast<long long>(g_idata[i]) : 0;
  __syncthreads();

  // Reduction in shared memory: the first threads of the block do the work of step s, each on
  // the pair at index = 2*s*tid (contiguous threads, strided, conflicting addresses).
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }

  // Write the result of this block to global memory.
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void reduce_2(const int* in, long long* out, int n) {
  relaunch_until_one(reduce2Kernel<int>, reduce2Kernel<long long>,
                     REDUCE2_THREADS, REDUCE2_THREADS, in, out, n);
}
