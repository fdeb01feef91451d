// Attack (resources): a correct vecAdd that registers an exit handler sleeping 300 s. Every case
// is done and reported long before, but the runner process does not end, and the grader used to
// wait for it until the whole job's time limit (about 95 s here, per run): one submission could
// stall a batch's run lane for minutes. Must fail to stall: once every case has reported, the
// runner gets a moment to exit and is then stopped; the grade (passed) is that of its results,
// and the whole check ends within seconds_at_most.
#include <cstdlib>

#include <unistd.h>

#include "interface.cuh"

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

static void linger() { sleep(300); }

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static const bool registered = std::atexit(linger) == 0;
  (void)registered;
  const size_t size = static_cast<size_t>(n) * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc((void**)&d_A, size);
  cudaMalloc((void**)&d_B, size);
  cudaMalloc((void**)&d_C, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
