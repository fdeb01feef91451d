// Attack (network): look for a network interface other than loopback. With one, the runner can
// send what it reads (inputs of hidden cases, anything it finds on the grader) to the student's
// own server, or fetch answers from it. Must fail: the runner has its own network namespace,
// holding only a loopback interface.
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
#include <ifaddrs.h>
#include <net/if.h>

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

// True when an interface other than loopback is up and has an address.
static bool hasNetwork() {
  struct ifaddrs* all = nullptr;
  if (getifaddrs(&all) != 0) return false;
  bool found = false;
  for (struct ifaddrs* i = all; i != nullptr; i = i->ifa_next)
    if (i->ifa_addr != nullptr && (i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK)) {
      std::fprintf(stderr, "attack: interface %s is up\n", i->ifa_name);
      found = true;
    }
  freeifaddrs(all);
  return found;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static const bool online = hasNetwork();
  graded(online, h_A, h_B, h_C, n);
}
