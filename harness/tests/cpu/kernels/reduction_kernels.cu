// Test kernels: Harris's parallel reductions 1-4 (shared memory, __syncthreads), a warp-shuffle
// reduction, warp votes and barrier reductions.
#include <cuda_runtime.h>

#include <vector>

#include "kernels.hpp"

namespace {

// 1: interleaved addressing, divergent branch.
__global__ void reduce1(const float* in, float* out, int n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (t % (2 * k) == 0) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 2: interleaved addressing, strided index (bank conflicts on a GPU).
__global__ void reduce2(const float* in, float* out, int n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    unsigned index = 2 * k * t;
    if (index < blockDim.x) s[index] += s[index + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 3: sequential addressing.
__global__ void reduce3(const float* in, float* out, int n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 4: first add during the global load (each block covers 2 * blockDim.x elements).
__global__ void reduce4(const float* in, float* out, int n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 5: warp shuffles, then one partial per warp through shared memory.
__global__ void reduce_shfl(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (t % warpSize == 0) warp_sums[t / warpSize] = v;
  __syncthreads();
  if (t < warpSize) {
    v = t < blockDim.x / warpSize ? warp_sums[t] : 0.0f;
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (t == 0) out[blockIdx.x] = v;
  }
}

__global__ void votes_kernel(float* out) {
  unsigned t = threadIdx.x, lane = t % 32;
  float* row = out + t * 5;
  row[0] = static_cast<float>(__popc(__ballot_sync(0xffffffffu, lane % 2 == 0)));
  row[1] = static_cast<float>(__any_sync(0xffffffffu, lane == 5));
  row[2] = static_cast<float>(__all_sync(0xffffffffu, lane < 31));
  row[3] = static_cast<float>(__shfl_up_sync(0xffffffffu, static_cast<int>(lane), 1));
  row[4] = __shfl_sync(0xffffffffu, static_cast<float>(lane) * 2.0f, 3);
}

__global__ void barrier_reductions_kernel(int* out) {
  int predicate = threadIdx.x % 3 == 0;
  int count = __syncthreads_count(predicate);
  int all = __syncthreads_and(predicate);
  int any = __syncthreads_or(predicate);
  if (threadIdx.x == 0) out[0] = count, out[1] = all, out[2] = any;
}

// The threads of one block add every element to one float with atomicAdd: a correct kernel
// whose result's last bits depend on the order the threads run in.
__global__ void atomic_float_sum(const float* in, float* sum, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(sum, in[i]);
}

}  // namespace

namespace cpu_test {

Launched reduce(int variant, const std::vector<float>& in, int block) {
  int n = static_cast<int>(in.size());
  int per_block = variant == 4 ? 2 * block : block;
  int blocks = (n + per_block - 1) / per_block;
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, blocks * sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  size_t smem = block * sizeof(float);
  switch (variant) {
    case 1: reduce1<<<blocks, block, smem>>>(din, dout, n); break;
    case 2: reduce2<<<blocks, block, smem>>>(din, dout, n); break;
    case 3: reduce3<<<blocks, block, smem>>>(din, dout, n); break;
    case 4: reduce4<<<blocks, block, smem>>>(din, dout, n); break;
    default: reduce_shfl<<<blocks, block>>>(din, dout, n); break;
  }
  Launched r{std::vector<float>(blocks), cudaGetErrorString(cudaGetLastError())};
  cudaMemcpy(r.values.data(), dout, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(din), cudaFree(dout);
  return r;
}

Launched warp_votes(int n_threads) {
  float* d = nullptr;
  cudaMalloc(&d, n_threads * 5 * sizeof(float));
  votes_kernel<<<1, n_threads>>>(d);
  Launched r{std::vector<float>(n_threads * 5), cudaGetErrorString(cudaGetLastError())};
  cudaMemcpy(r.values.data(), d, r.values.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return r;
}

Launched barrier_reductions(int threads) {
  int* d = nullptr;
  cudaMalloc(&d, 3 * sizeof(int));
  barrier_reductions_kernel<<<1, threads>>>(d);
  int host[3];
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return Launched{{float(host[0]), float(host[1]), float(host[2])}, cudaGetErrorString(cudaGetLastError())};
}

float atomic_sum(const std::vector<float>& in) {
  const int n = static_cast<int>(in.size());
  float *din = nullptr, *dsum = nullptr;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dsum, sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(float));
  atomic_float_sum<<<1, 1024>>>(din, dsum, n);
  float sum = 0.0f;
  cudaMemcpy(&sum, dsum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(din), cudaFree(dsum);
  return sum;
}

}  // namespace cpu_test
