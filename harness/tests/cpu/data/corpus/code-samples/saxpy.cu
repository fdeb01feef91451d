// Corpus item (vecadd): posts/grcuda/kernel/saxpy.cu, y = alpha*x + y with alpha = 1 on a copy
// of B, launched with 256 threads per block as the post does.
#include "posts/grcuda/kernel/saxpy.cu"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  size_t size = n * sizeof(float);
  float *x, *y;
  cudaMalloc(&x, size);
  cudaMalloc(&y, size);
  cudaMemcpy(x, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(y, h_B, size, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 1.0f, x, y);
  cudaMemcpy(h_C, y, size, cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
}
