// Bug (index): the global index leaves out the factor blockDim.x (i = blockIdx.x + threadIdx.x):
// blocks overlap almost entirely, so only the first gridDim.x + 255 elements are ever written.
#include "interface.cuh"

// Compute vector sum C = A+B
// Each thread performs one pair-wise addition
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = blockIdx.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  int size = n * sizeof(float);
  float *d_A, *d_B, *d_C;

  // 1. Transfer A and B to device memory
  cudaMalloc((void**)&d_A, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMalloc((void**)&d_B, size);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  // Allocate device memory for C
  cudaMalloc((void**)&d_C, size);

  // 2. Run ceil(n/256.0) blocks of 256 threads each
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);

  // 3. Transfer C from device to host; free device memory for A, B, C
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
}
