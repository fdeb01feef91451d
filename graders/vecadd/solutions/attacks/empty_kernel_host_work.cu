// Attack (a result that is not the GPU's work, with a kernel for show): vecAdd adds on the host,
// copies the sums to the device, launches a kernel that does nothing, and copies the sums back
// as if the kernel had made them. Its answer is right in every case. Must fail: what came back
// to h_C is exactly what host code had sent to the device, unchanged by any kernel, so the case
// is "computed without a kernel" (runtime/host_work.hpp): no points.
#include <vector>

#include "interface.cuh"

__global__ void vecAddKernel(const float*, const float*, float*, int) {}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  std::vector<float> sums(n);
  for (int i = 0; i < n; ++i) sums[i] = h_A[i] + h_B[i];
  float* d_C = nullptr;
  cudaMalloc((void**)&d_C, n * sizeof(float));
  cudaMemcpy(d_C, sums.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  vecAddKernel<<<(n + 255) / 256, 256>>>(nullptr, nullptr, d_C, n);
  cudaMemcpy(h_C, d_C, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_C);
}
