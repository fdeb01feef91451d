// Attack (an out-of-bounds write hidden): the lecture's vecAdd, right in every case; after C is
// copied back, a second kernel writes 1 MiB past the end of C and 4 KiB before the start of A
// (where, on the CPU backend, other arrays, fiber stacks or the heap once lay), and the code
// calls cudaDeviceReset() to clear the error a GPU reports for it. Must fail: on the CPU backend
// every device allocation lies alone in a reach of unmapped address space, so the writes fault
// and name the array they overran, and the fault stays the case's after cudaDeviceReset; on a
// GPU compute-sanitizer's memcheck reports the writes in the sanitized cases.
#include "interface.cuh"

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

__global__ void scribble(float* A, float* C, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    C[n + (1 << 20) / (int)sizeof(float)] = 1.0f;  // 1 MiB past the end of C
    A[-4096 / (int)sizeof(float)] = 1.0f;          // 4 KiB before A
  }
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
  scribble<<<1, 32>>>(d_A, d_C, n);
  cudaDeviceSynchronize();
  cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
  cudaDeviceReset();
}
