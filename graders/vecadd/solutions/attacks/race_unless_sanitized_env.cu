// Attack (behave only while watched, by the environment): at each call, look for
// compute-sanitizer's variables (its launcher sets NV_SANITIZER_INJECTION_*,
// NVIDIA-PROCESS-TRACKING-*, NVTX_INJECTION64_PATH, ... and cugrade its CUGRADE_TASK_MARKERS);
// found, add with a __syncthreads() between writing shared memory and reading it; not found, leave
// it out, so that each thread reads the next warp's slot whether it was written or not (a race
// that a GPU often runs right, and racecheck always reports). Must fail: once its CUDA context
// exists the runner takes those variables out of its environment (runtime/sanitizer_traces.hpp),
// so under racecheck it races too and the race is reported; the CPU backend, which has no
// sanitizer, runs it racing and catches it with its two schedules.
#include <cstdlib>
#include <cstring>

#include "interface.cuh"

extern char** environ;

/// Whether any variable of this process names compute-sanitizer or cugrade's sanitized runs.
static bool watched() {
  for (char** entry = environ; entry && *entry; ++entry)
    if (std::strncmp(*entry, "NV_SANITIZER", 12) == 0 || std::strncmp(*entry, "NVIDIA-PROCESS-TRACKING", 23) == 0 ||
        std::strncmp(*entry, "NVTX_INJECTION64_PATH", 21) == 0 || std::strncmp(*entry, "CUGRADE_TASK_MARKERS", 20) == 0 ||
        std::strstr(*entry, "sanitizer") != nullptr)
      return true;
  return false;
}

// Each thread adds its element into shared memory, then writes out the sum the thread 32 slots
// on computed (the next warp's), for that thread's element.
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n, bool barrier) {
  __shared__ float sums[256];
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  sums[threadIdx.x] = i < n ? A[i] + B[i] : 0.f;
  if (barrier) __syncthreads();
  const int other = (threadIdx.x + 32) % blockDim.x;
  const int j = other + blockDim.x * blockIdx.x;
  if (j < n) C[j] = sums[other];
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const size_t size = static_cast<size_t>(n) * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc((void**)&d_A, size);
  cudaMalloc((void**)&d_B, size);
  cudaMalloc((void**)&d_C, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n, watched());
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
