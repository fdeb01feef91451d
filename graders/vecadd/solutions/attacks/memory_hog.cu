// Attack (resources): take 12 GiB of host memory, touching every page (the same code taking
// 80 GiB would push the grader into swap or the OOM killer, and with it other students' runs).
// Must fail: the runner's address space is limited, so the allocation fails and the submission
// is graded on its own (wrong) numbers. CPU backend only: a CUDA runner maps far more address
// space than it uses, so there the limit must come from elsewhere.
// How to read the outcome: the submission's own numbers are wrong (every C[i] = 0) unless the
// attack worked, in which case it computes the true sum. So "passed" means the attack worked,
// and the expected outcome, wrong_answer, means it was stopped.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interface.cuh"

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

// The lecture's vecAdd, called only when the attack worked (see the top of this file).
static void honestVecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
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

// Pass only if the attack worked: every element wrong otherwise.
static void graded(bool attack_worked, const float* h_A, const float* h_B, float* h_C, int n) {
  if (attack_worked) {
    honestVecAdd(h_A, h_B, h_C, n);
  } else {
    for (int i = 0; i < n; ++i) h_C[i] = 0.0f;
  }
}

// True when 12 GiB could be allocated and touched (released again at once). Every block is
// taken before any is touched: a refused one ends the attempt at once, where touching each as
// it came took 8 s of page faults on a 2-core machine before the limit refused the next.
static bool hogs() {
  const size_t chunk = size_t{256} << 20;
  std::vector<char*> taken;
  for (int i = 0; i < 48; ++i) {
    char* block = static_cast<char*>(std::malloc(chunk));
    if (block == nullptr) break;
    taken.push_back(block);
  }
  const bool all = taken.size() == 48;
  if (all)
    for (char* block : taken) std::memset(block, 1, chunk);
  for (char* block : taken) std::free(block);
  return all;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static const bool hogged = hogs();
  graded(hogged, h_A, h_B, h_C, n);
}
