// Attack (the reference is reachable): hand every step to the instructor's kernels, declared in
// their namespace (cugrade_reference) as the runner once linked them in. On a GPU this earned
// full marks and full performance points (the ratio against the reference is 1). Must fail: the
// student's runner holds no callable reference and the link is refused.
#include "interface.cuh"

namespace cugrade_reference {
#include "interface.cuh"
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  cugrade_reference::matmul_naive(A, B, C, M, N, K);
}
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  cugrade_reference::matmul_padded(A, B, C, M, N, K);
}
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  cugrade_reference::matmul_tiled(A, B, C, M, N, K);
}
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  cugrade_reference::matmul_coarse(A, B, C, M, N, K);
}
