// Reference for assignment vecadd: lecture 003's vector addition (Kirk & Hwu, "vecAdd CUDA host
// code" and "Vector Addition Kernel"), with the lecture's names and its three-part structure.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cmath>
#include <cstdio>

#include <cuda_runtime.h>

// Each thread performs one pair-wise addition. The grid has ceil(n/256) blocks, so the last
// block may hold threads past the end: the `i < n` test keeps them from touching memory.
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

// True when `status` is cudaSuccess; otherwise says which call failed (a function, not a
// macro: macros would leak out of the namespace this file is compiled in).
static bool vec_add_ok(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "vecAdd: %s failed: %s\n", call, cudaGetErrorString(status));
  return false;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const size_t size = static_cast<size_t>(n) * sizeof(float);
  float* d_A = nullptr;
  float* d_B = nullptr;
  float* d_C = nullptr;

  // Part 1: allocate device memory for A, B and C; copy A and B to device memory.
  bool ok = vec_add_ok(cudaMalloc((void**)&d_A, size), "cudaMalloc(d_A)") &&
            vec_add_ok(cudaMalloc((void**)&d_B, size), "cudaMalloc(d_B)") &&
            vec_add_ok(cudaMalloc((void**)&d_C, size), "cudaMalloc(d_C)") &&
            vec_add_ok(cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice), "cudaMemcpy(d_A)") &&
            vec_add_ok(cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice), "cudaMemcpy(d_B)");

  // Part 2: the kernel launch, ceil(n/256.0) blocks of 256 threads each.
  if (ok) {
    vecAddKernel<<<static_cast<unsigned>(std::ceil(n / 256.0)), 256>>>(d_A, d_B, d_C, n);
    ok = vec_add_ok(cudaGetLastError(), "vecAddKernel launch");
  }

  // Part 3: copy C from the device memory (this waits for the kernel); free the device vectors.
  if (ok) vec_add_ok(cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost), "cudaMemcpy(h_C)");
  vec_add_ok(cudaFree(d_A), "cudaFree(d_A)");
  vec_add_ok(cudaFree(d_B), "cudaFree(d_B)");
  vec_add_ok(cudaFree(d_C), "cudaFree(d_C)");
}
