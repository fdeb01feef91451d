// Test kernels: reads of shared memory no thread of the block wrote (static, dynamic and
// file-scope __shared__), which see the poison of CUGRADE_SHARED_POISON.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "kernels.hpp"

namespace {

__shared__ int file_scope_count;

// Threads 32..63 read elements no thread wrote: only threads 0..31 write theirs.
__global__ void half_written_static(float* out) {
  __shared__ float s[64];
  if (threadIdx.x < 32) s[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

__global__ void half_written_dynamic(float* out) {
  extern __shared__ float d[];
  if (threadIdx.x < 32) d[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = d[threadIdx.x];
}

// Only block 0 writes `s`: every other block reads its own, uninitialised, copy.
__global__ void first_block_writes(float* out) {
  __shared__ int s;
  if (blockIdx.x == 0 && threadIdx.x == 0) s = 7;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<float>(s);
}

__global__ void file_scope_counter(float* out) {
  if (threadIdx.x == 0) file_scope_count += 1;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<float>(file_scope_count);
}

}  // namespace

namespace cpu_test {

Launched shared_reads(const std::string& which) {
  // Many blocks for per_block: more than there are workers, so some worker runs two.
  const int blocks = which == "per_block" ? 64 : 3, threads = 64;
  float* d = nullptr;
  cudaMalloc(&d, blocks * threads * sizeof(float));
  cudaMemset(d, 0, blocks * threads * sizeof(float));
  if (which == "static") half_written_static<<<blocks, threads>>>(d);
  if (which == "dynamic") half_written_dynamic<<<blocks, threads, threads * sizeof(float)>>>(d);
  if (which == "per_block") first_block_writes<<<blocks, threads>>>(d);
  if (which == "file_scope") file_scope_counter<<<blocks, threads>>>(d);
  Launched r{std::vector<float>(blocks * threads), cudaGetErrorString(cudaGetLastError())};
  cudaMemcpy(r.values.data(), d, r.values.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return r;
}

}  // namespace cpu_test
