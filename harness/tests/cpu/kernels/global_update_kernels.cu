// Test kernels for races on global memory: non-atomic read-modify-writes of one address by
// several threads of a launch (the bugs), and the updates that are no race (each thread its own
// element, atomics, a barrier or a lock between, separate launches).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "kernels.hpp"

namespace {

// The reduction bug: every block adds its sum into *out without atomicAdd.
__global__ void block_sums(const float* in, float* out, int n) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) *out += sdata[0];
}

// The same, correct: atomicAdd.
__global__ void block_sums_atomic(const float* in, float* out, int n) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, sdata[0]);
}

// A histogram with `hist[bin]++`.
__global__ void histogram(const float* in, int* hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hist[static_cast<int>(in[i]) % 4]++;
}

// Every thread adds its element into one total (vecadd-like code gone wrong).
__global__ void all_into_one(const float* in, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) total[0] += in[i];
}

// Each thread updates its own element, many times (a matmul accumulating into C).
__global__ void own_elements(const float* in, float* c, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = 0.0f;
  for (int j = 0; j < k; ++j) c[i] += in[(i + j) % n];
  ++c[i];
}

// One thread per step adds into out[0], a __syncthreads() between the steps: ordered.
__global__ void turns_by_barrier(float* out) {
  for (unsigned step = 0; step < blockDim.x; ++step) {
    if (threadIdx.x == step) out[0] += 1.0f;
    __syncthreads();
  }
}

// Harris's interleaved reduction, in place in global memory: the thread that updates an element
// changes from step to step, with a __syncthreads() between.
__global__ void reduce_in_global(float* g) {
  unsigned tid = threadIdx.x;
  float* mine = g + blockIdx.x * blockDim.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) mine[index] += mine[index + s];
    __syncthreads();
  }
}

// Each block's first thread adds into *out under a spin lock (atomicCAS / atomicExch).
__global__ void locked_sum(float* out, int* lock) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *out += 1.0f;
  __threadfence();
  atomicExch(lock, 0);
}

// Thread 0 adds, thread 1 subtracts, on another line: both lines are named.
__global__ void two_lines(float* out) {
  if (threadIdx.x == 0) out[0] += 1.0f;
  if (threadIdx.x == 1)
    out[0] -= 1.0f;
}

// One block adds into *out per launch.
__global__ void one_block_adds(float* out, float v) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out += v;
}

}  // namespace

namespace cpu_test {

Launched global_updates(const std::string& which) {
  const int n = 256;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7);
  float *in = nullptr, *out = nullptr;
  int *hist = nullptr, *lock = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&hist, 4 * sizeof(int));
  cudaMalloc(&lock, sizeof(int));
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(out, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(hist, 0, 4 * sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  cudaMemset(out, 0, sizeof(float));
  if (which == "block_sums") block_sums<<<n / 64, 64>>>(in, out, n);
  if (which == "block_sums_one_block") block_sums<<<1, 64>>>(in, out, 64);
  if (which == "block_sums_atomic") block_sums_atomic<<<n / 64, 64>>>(in, out, n);
  if (which == "histogram") histogram<<<n / 64, 64>>>(in, hist, n);
  if (which == "all_into_one") all_into_one<<<1, 32>>>(in, out, 32);
  if (which == "own_elements") own_elements<<<n / 64, 64>>>(in, out, n, 8);
  if (which == "turns_by_barrier") turns_by_barrier<<<1, 32>>>(out);
  if (which == "reduce_in_global") reduce_in_global<<<n / 64, 64>>>(out);
  if (which == "locked_sum") locked_sum<<<8, 32>>>(out, lock);
  if (which == "two_lines") two_lines<<<1, 2>>>(out);
  if (which == "separate_launches")
    for (int launch = 0; launch < 3; ++launch) one_block_adds<<<2, 32>>>(out, 1.0f);
  Launched result;
  result.error = cudaGetErrorString(cudaDeviceSynchronize());
  result.values.resize(n);
  cudaMemcpy(result.values.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  cudaFree(hist);
  cudaFree(lock);
  cudaDeviceReset();
  return result;
}

}  // namespace cpu_test
