// Test kernels with the bugs the CPU backend diagnoses: barrier and warp divergence,
// out-of-bounds accesses, host pointers, use after free, __trap, and a race.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "kernels.hpp"

namespace {

__global__ void exit_before_barrier(float* a, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  __syncthreads();
  a[i] = 1.0f;
}

__global__ void different_barriers(float* a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = 1.0f;
    __syncthreads();
  } else {
    a[threadIdx.x] = 2.0f;
    __syncthreads();
  }
}

__global__ void shfl_after_exit(float* a) {
  if (threadIdx.x == 7) return;
  float v = __shfl_down_sync(0xffffffffu, a[threadIdx.x], 1);
  a[threadIdx.x] = v;
}

__global__ void write_past_end(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 1.0f;  // no bounds check: the last block writes past n
}

__global__ void read_past_end(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i + 1];
}

// One thread writes `offset` elements away from a[0]: far past the end, or before the start.
__global__ void write_at_offset(float* a, long long offset) {
  if (threadIdx.x == 0 && blockIdx.x == 0) a[offset] = 1.0f;
}

__global__ void trap_kernel() {
  if (threadIdx.x == 0) __trap();
}

__global__ void racy_kernel(float* out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = static_cast<float>(t);
  // Missing __syncthreads(): whether s[t + 1] is written yet depends on the order of threads.
  out[t] = t + 1 < blockDim.x ? s[t + 1] : 0.0f;
}

// Each thread writes its own element of the dynamic shared memory: the launch must give
// blockDim.x ints of it.
__global__ void dynamic_shared_sum(const float* a, float* out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += partial[i];
    out[blockIdx.x] = sum;
  }
}

}  // namespace

namespace cpu_test {

std::string faulty(const std::string& which) {
  const int n = 1000;
  float* d = nullptr;
  float* out = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  if (which == "exit_before_barrier") exit_before_barrier<<<1, 64>>>(d, 40);
  if (which == "different_barriers") different_barriers<<<1, 32>>>(d);
  if (which == "shfl_after_exit") shfl_after_exit<<<1, 32>>>(d);
  if (which == "out_of_bounds_write") write_past_end<<<(n + 255) / 256, 256>>>(d, n);
  if (which == "out_of_bounds_read") read_past_end<<<(n + 255) / 256, 256>>>(d, out, n);
  if (which == "trap") trap_kernel<<<1, 32>>>();
  if (which == "one_mib_past_end") write_at_offset<<<1, 32>>>(d, n + (1 << 20) / 4);
  if (which == "a_page_before_start") write_at_offset<<<1, 32>>>(d, -1024);
  if (which == "just_before_start") write_at_offset<<<1, 32>>>(d, -1);
  if (which == "shared_not_given") dynamic_shared_sum<<<1, 64>>>(d, out);
  if (which == "shared_too_small") dynamic_shared_sum<<<1, 64, 40 * sizeof(float)>>>(d, out);
  if (which == "shared_given") dynamic_shared_sum<<<1, 64, 64 * sizeof(float)>>>(d, out);
  if (which == "host_pointer") {
    std::vector<float> host(n);
    write_past_end<<<1, 32>>>(host.data(), n);
  }
  if (which == "use_after_free") {
    cudaFree(d);
    write_past_end<<<1, 32>>>(d, n);
  }
  cudaError_t error = cudaDeviceSynchronize();
  std::string text = cudaGetErrorString(error);
  cudaDeviceReset();
  return text;
}

AfterReset far_write_then_reset() {
  float* d = nullptr;
  cudaMalloc(&d, 1000 * sizeof(float));
  write_at_offset<<<1, 32>>>(d, 1000 + (1 << 20) / 4);
  cudaDeviceReset();
  AfterReset seen;
  seen.clean = cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess;
  seen.illegal_address = cudaErrorIllegalAddress;
  return seen;
}

__global__ void order_kernel(int* order, int* next) {
  __syncthreads();
  order[atomicAdd(next, 1)] = threadIdx.x;
}

std::vector<int> order_after_barrier(int threads) {
  int *order = nullptr, *next = nullptr;
  cudaMalloc(&order, threads * sizeof(int));
  cudaMalloc(&next, sizeof(int));
  cudaMemset(next, 0, sizeof(int));
  order_kernel<<<1, threads>>>(order, next);
  std::vector<int> r(threads);
  cudaMemcpy(r.data(), order, threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(order);
  cudaFree(next);
  return r;
}

Launched racy(int threads) {
  float* d = nullptr;
  cudaMalloc(&d, threads * sizeof(float));
  racy_kernel<<<1, threads>>>(d);
  Launched r{std::vector<float>(threads), cudaGetErrorString(cudaGetLastError())};
  cudaMemcpy(r.values.data(), d, threads * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return r;
}

}  // namespace cpu_test
