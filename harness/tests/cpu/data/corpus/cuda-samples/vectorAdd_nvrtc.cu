// Corpus item (vecadd): Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu (the kernel the sample
// loads through the driver API / NVRTC), launched as the sample does: 256 threads per block.
#include "Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  size_t size = n * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc(&d_A, size);
  cudaMalloc(&d_B, size);
  cudaMalloc(&d_C, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  int threadsPerBlock = 256;
  int blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock;
  vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, n);
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
