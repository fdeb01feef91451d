// Assignment vecadd: C = A + B on the GPU (lecture 003, Kirk & Hwu). Read ASSIGNMENT.md first.
// Fill in every TODO; `cugrade check vecadd --submission vecadd.cu` tells you how far you are.
#include <cstdio>

#include <cuda_runtime.h>

#include "interface.cuh"

// Each thread performs one pair-wise addition: C[i] = A[i] + B[i].
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  // TODO: compute this thread's index i from threadIdx.x, blockDim.x and blockIdx.x, and add
  //       A[i] and B[i] only when i < n (the last block may reach past the end).
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  // TODO Part 1: declare float *d_A, *d_B, *d_C; cudaMalloc each (n * sizeof(float) bytes);
  //      cudaMemcpy h_A and h_B to the device. Check what every CUDA call returns
  //      (cudaGetErrorString makes it readable).

  // TODO Part 2: launch vecAddKernel with ceil(n/256.0) blocks of 256 threads each.

  // TODO Part 3: cudaMemcpy d_C back into h_C, then cudaFree d_A, d_B and d_C.
}
