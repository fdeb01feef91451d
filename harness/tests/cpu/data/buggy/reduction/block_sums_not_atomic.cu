// Bug (race): out is zeroed, then every block adds its sum into it with `*out += s[0]`, not
// atomicAdd: blocks that finish together read the same total, and on a GPU one block's sum is lost.
#include <cuda_runtime.h>

#include "interface.cuh"

constexpr unsigned int kThreads = 512;

__device__ long long warpSum(long long v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// step 1..3: one element per thread; `variant` picks the lecture's tree.
template <int variant>
__global__ void oneLoad(const int* in, long long* out, int n) {
  __shared__ long long s[kThreads];
  const unsigned int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * kThreads + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  if (variant == 1) {
    for (unsigned int d = 1; d < kThreads; d *= 2) {
      if (t % (2 * d) == 0) s[t] += s[t + d];
      __syncthreads();
    }
  } else if (variant == 2) {
    for (unsigned int d = 1; d < kThreads; d *= 2) {
      const unsigned int k = 2 * d * t;
      if (k < kThreads) s[k] += s[k + d];
      __syncthreads();
    }
  } else {
    for (unsigned int d = kThreads / 2; d > 0; d /= 2) {
      if (t < d) s[t] += s[t + d];
      __syncthreads();
    }
  }
  if (t == 0) *out += s[0];
}

// steps 4..7: two elements per thread while loading (7: many, grid-stride); `variant` picks
// the rest of the tree.
template <int variant>
__global__ void twoLoads(const int* in, long long* out, int n) {
  __shared__ long long s[kThreads];
  const unsigned int t = threadIdx.x;
  long long sum = 0;
  const long long stride = variant == 7 ? 2LL * kThreads * gridDim.x : 1LL << 62;
  for (long long i = static_cast<long long>(blockIdx.x) * 2 * kThreads + t; i < n; i += stride) {
    sum += in[i];
    if (i + kThreads < n) sum += in[i + kThreads];
  }
  s[t] = sum;
  __syncthreads();
  const unsigned int last = variant == 4 ? 0 : 32;
  for (unsigned int d = kThreads / 2; d > last; d /= 2) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (variant == 4) {
    if (t == 0) *out += s[0];
  } else if (t < 32) {
    const long long v = warpSum(s[t] + s[t + 32]);
    if (t == 0) *out += v;
  }
}

template <class Kernel>
void launch(Kernel kernel, unsigned int per_block, unsigned int max_blocks, const int* in, long long* out, int n) {
  unsigned int blocks = (static_cast<unsigned int>(n) + per_block - 1) / per_block;
  if (blocks > max_blocks) blocks = max_blocks;
  cudaMemset(out, 0, sizeof(long long));
  kernel<<<blocks, kThreads>>>(in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { launch(oneLoad<1>, kThreads, ~0u, in, out, n); }
void reduce_2(const int* in, long long* out, int n) { launch(oneLoad<2>, kThreads, ~0u, in, out, n); }
void reduce_3(const int* in, long long* out, int n) { launch(oneLoad<3>, kThreads, ~0u, in, out, n); }
void reduce_4(const int* in, long long* out, int n) { launch(twoLoads<4>, 2 * kThreads, ~0u, in, out, n); }
void reduce_5(const int* in, long long* out, int n) { launch(twoLoads<5>, 2 * kThreads, ~0u, in, out, n); }
void reduce_6(const int* in, long long* out, int n) { launch(twoLoads<6>, 2 * kThreads, ~0u, in, out, n); }
void reduce_7(const int* in, long long* out, int n) { launch(twoLoads<7>, 2 * kThreads, 512, in, out, n); }
