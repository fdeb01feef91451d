// Attack (resources): flood stdout with 256 MiB of text, correct results or not, to fill the
// grader's memory or disk with the captured output. Must fail: output past the spec's cap
// (64 KiB) stops the runner and is charged to the student (output_limit).
#include <cstdio>
#include <cstring>

#include "interface.cuh"

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static char line[4096];
  std::memset(line, 'A', sizeof line - 2);
  line[sizeof line - 2] = '\n';
  for (int i = 0; i < 65536; ++i) std::fputs(line, stdout);
  for (int i = 0; i < n; ++i) h_C[i] = h_A[i] + h_B[i];
}
