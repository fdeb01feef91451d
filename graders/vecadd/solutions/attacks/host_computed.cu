// Attack (a result that is not the GPU's work): vecAdd adds on the host, straight into h_C, and
// launches no kernel at all. Its answer is right in every case. Must fail: a call that launches
// no kernel, or whose output is written by host code rather than copied back from memory a
// kernel wrote, is "computed without a kernel" (runtime/host_work.hpp): no points.
#include "interface.cuh"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  for (int i = 0; i < n; ++i) h_C[i] = h_A[i] + h_B[i];
}
