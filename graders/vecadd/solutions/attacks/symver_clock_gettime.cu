// Attack (symbols): replace clock_gettime, the clock behind every timer the runner uses, without
// ever naming it: the assembler's .symver gives this function the versioned name
// clock_gettime@@GLIBC_2.17, which a blocklist comparing names with "clock_gettime" lets
// through, and which the dynamic linker then binds for the runner and libstdc++ alike. Here it
// only notes that the runner called it; a real attack would slow the clock around its own
// kernels. Must fail: the symbol policy refuses any definition outside the submission's own
// code, versioned or not (forbidden_symbol).
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
#include <sys/syscall.h>
#include <time.h>

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

extern "C" int attack_clock_gettime(clockid_t clock, struct timespec* now) {
  runner_called_us = true;
  return static_cast<int>(syscall(SYS_clock_gettime, clock, now));
}
__asm__(".symver attack_clock_gettime, clock_gettime@@GLIBC_2.17");

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  graded(runner_called_us, h_A, h_B, h_C, n);
}
