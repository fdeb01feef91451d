// Corpus item (matmul): SGEMM_CUDA's src/runner.cu and the kernels of src/kernels/, run through
// the repository's own run_kernel() (its launch code, its tile sizes) with alpha = 1 and
// beta = 0 on a zeroed C. Steps: naive runs kernel 5, padded kernel 6, tiled kernel 7,
// coarse kernel 8 (the kernel numbers of the repository's README).
#include "src/runner.cu"

static void run(int kernel_num, const float* A, const float* B, float* C, int M, int N, int K) {
  cudaMemset(C, 0, sizeof(float) * M * N);  // beta * C must not read garbage (0 * NaN)
  run_kernel(kernel_num, M, N, K, 1.0f, const_cast<float*>(A), const_cast<float*>(B), 0.0f, C, nullptr);
}
void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { run(5, A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { run(6, A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { run(7, A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { run(8, A, B, C, M, N, K); }
