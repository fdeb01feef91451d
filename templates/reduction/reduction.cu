// Assignment reduction: out[0] = in[0] + ... + in[n-1], seven times, once per kernel of Harris's
// reduction (lectures 001 and 003). Read ASSIGNMENT.md first. Fill in every TODO;
// `cugrade check reduction --submission reduction.cu` tells you how far you are. `in` and `out`
// are device pointers; launch and return (free what you allocate; no copies to the host).
#include <cuda_runtime.h>

#include "interface.cuh"

#define BLOCK_SIZE 256

// Step "reduce1": interleaved addressing. Each block sums BLOCK_SIZE elements into g_odata[blockIdx.x].
__global__ void reduce1Kernel(const int* g_idata, long long* g_odata, unsigned int n) {
  // TODO: extern __shared__ long long sdata[]; sdata[tid] = in[i] (0 when i >= n);
  //       __syncthreads(); for (s = 1; s < blockDim.x; s *= 2) { if (tid % (2*s) == 0)
  //       sdata[tid] += sdata[tid + s]; __syncthreads(); } then thread 0 writes sdata[0].
}

void reduce_1(const int* in, long long* out, int n) {
  // TODO: launch ceil(n / BLOCK_SIZE) blocks (shared memory: BLOCK_SIZE * sizeof(long long)),
  //       then relaunch a kernel over the partial sums (a cudaMalloc'ed scratch buffer) until one
  //       is left, and write it to out[0]. The first level reads ints, later ones long longs:
  //       a second kernel, or a template on the input type. cudaFree the scratch at the end.
}

// Step "reduce2": as reduce1, but with index = 2*s*tid and if (index < blockDim.x).
void reduce_2(const int* in, long long* out, int n) {
  // TODO
}

// Step "reduce3": sequential addressing, for (s = blockDim.x/2; s > 0; s >>= 1) if (tid < s) ...
void reduce_3(const int* in, long long* out, int n) {
  // TODO
}

// Step "reduce4": reduce3 with the first add during the load, in[i] + in[i + blockDim.x]
// (both bounds-checked), so each block covers 2*BLOCK_SIZE elements.
void reduce_4(const int* in, long long* out, int n) {
  // TODO
}

// Step "reduce5": reduce4 with the loop stopping at s > 32 and the last warp unrolled. Since
// Volta the lanes of a warp do not run in lockstep: use __syncwarp() between the reads and the
// writes of each unrolled step, or warp shuffles (__shfl_down_sync).
void reduce_5(const int* in, long long* out, int n) {
  // TODO
}

// Step "reduce6": reduce5 completely unrolled with template <unsigned int blockSize>.
void reduce_6(const int* in, long long* out, int n) {
  // TODO
}

// Step "reduce7": many elements per thread: a grid of bounded size, each thread summing
// in[i] + in[i + blockSize] in a loop with i += 2*blockSize*gridDim.x, then reduce6's block
// reduction; combine the block sums by a relaunch, or zero out[0] (cudaMemsetAsync) and add each
// block's sum with atomicAdd((unsigned long long*)out, (unsigned long long)sum).
void reduce_7(const int* in, long long* out, int n) {
  // TODO
}
