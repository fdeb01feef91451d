// Attack (symbols): define the C library's fwrite. The runner is linked with the submission, so
// this definition replaces fwrite for the runner too: its event writer (and anything else of the
// harness that writes through fwrite) now runs the student's code, which can drop, reorder or
// rewrite what the runner reports. Here it only notes that the runner called it. Must fail: the
// symbol policy is an allowlist, and a definition of a C library function is refused by name
// (forbidden_symbol).
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

static bool runner_called_us = false;

extern "C" size_t fwrite(const void* data, size_t size, size_t count, FILE* stream) {
  runner_called_us = true;
  return fwrite_unlocked(data, size, count, stream);
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  graded(runner_called_us, h_A, h_B, h_C, n);
}
