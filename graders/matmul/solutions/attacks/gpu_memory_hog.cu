// Attack (resources; GPU): in the first call, take all but 64 MiB of the GPU's free memory and
// never give it back. The runner's own allocations for the next cases (and the reference's, in
// the same process) then fail, which the runner reported as a failure of its own: cases that
// never cost points. The submission's own answer is wrong (C = 0). Must fail: a runner failure
// is the student's unless the harness reproduces it with the reference in a fresh process, so
// every case is charged to the submission, and no harness error is reported.
#include "interface.cuh"

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    void* hoard = nullptr;
    if (free_bytes > (size_t{64} << 20)) cudaMalloc(&hoard, free_bytes - (size_t{64} << 20));
  }
  cudaMemsetAsync(C, 0, sizeof(float) * M * N);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
