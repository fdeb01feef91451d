// Known good: a grid-stride loop over a capped grid (each thread adds every gridDim·blockDim-th
// pair), every CUDA call checked.
#include <algorithm>
#include <cstdio>

#include "interface.cuh"

__global__ void vecAddKernel(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    C[i] = A[i] + B[i];
}

static bool ok(cudaError_t status, const char* what) {
  if (status != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  return status == cudaSuccess;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
  if (ok(cudaMalloc(&d_A, bytes), "cudaMalloc A") && ok(cudaMalloc(&d_B, bytes), "cudaMalloc B") &&
      ok(cudaMalloc(&d_C, bytes), "cudaMalloc C") &&
      ok(cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice), "copy A") &&
      ok(cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice), "copy B")) {
    const int threads = 256;
    const int blocks = std::min((n + threads - 1) / threads, 1024);
    vecAddKernel<<<blocks, threads>>>(d_A, d_B, d_C, n);
    if (ok(cudaGetLastError(), "launch")) ok(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost), "copy C");
  }
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
