// Attack (behave only while watched, by the mapped files): at each call, look in /proc/self/maps
// for compute-sanitizer's libraries (libsanitizer-collection.so, libsanitizer-public.so,
// libTreeLauncher*.so, which its launcher loads into the program it watches); found, add with a
// __syncthreads() between writing shared memory and reading it; not found, read the next warp's
// slot before writing its own, so that what it reads is whatever shared memory held (a race a
// GPU does not run right). What a process has mapped cannot be hidden from it (its own
// /proc/self/maps, dl_iterate_phdr), so under compute-sanitizer it is right and racecheck sees no
// race. Must fail all the same: its unsanitized runs are wrong, and on a GPU the case's report
// says that its run under compute-sanitizer (memcheck) was right and the other wrong
// (pipeline/sanitized_runs.hpp); the CPU backend, which has no sanitizer, catches the race itself.
#include <cstdio>
#include <cstring>

#include "interface.cuh"

/// Whether a library of compute-sanitizer is mapped into this process.
static bool watched() {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return false;
  char line[1024];
  bool found = false;
  while (!found && std::fgets(line, sizeof line, maps))
    found = std::strstr(line, "libsanitizer") != nullptr || std::strstr(line, "TreeLauncher") != nullptr;
  std::fclose(maps);
  return found;
}

// Each thread adds its element into shared memory and writes out the sum the thread 32 slots on
// computed (the next warp's), for that thread's element; with `barrier` false it reads that slot
// before writing its own.
__global__ void vecAddKernel(const float* A, const float* B, float* C, int n, bool barrier) {
  __shared__ float sums[256];
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  const int other = (threadIdx.x + 32) % blockDim.x;
  const int j = other + blockDim.x * blockIdx.x;
  float early = 0.f;
  if (!barrier) early = sums[other];
  sums[threadIdx.x] = i < n ? A[i] + B[i] : 0.f;
  if (barrier) __syncthreads();
  if (j < n) C[j] = barrier ? sums[other] : early;
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
