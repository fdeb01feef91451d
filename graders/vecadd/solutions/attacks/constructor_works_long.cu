// Attack (work before the first case): a static constructor works for two minutes before the
// runner's first case (a precomputation, a cache warmed up: any work no case's clock sees; the
// per-case deadline starts only with a case). Its vecAdd is the lecture's. Must fail: the runner
// has a short deadline from its start to its first case (run_job.hpp, startup_timeout_s), so
// every case times out, in seconds, not minutes: no points.
#include <chrono>

#include "interface.cuh"

static volatile double sink = 0;

__attribute__((constructor)) static void workBeforeAnyCase() {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 1000000; ++i) sink = sink + 1.0;
}

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  int size = n * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc((void**)&d_A, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMalloc((void**)&d_B, size);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  cudaMalloc((void**)&d_C, size);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
}
