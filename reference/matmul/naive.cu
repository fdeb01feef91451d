// Reference for step "naive" of assignment matmul (and, in double, the reference-only step
// "naive_f64"): lecture 000's variant "Global" (kernel_global), which is also Kirk & Hwu's simple
// MatrixMulKernel (lecture 003): one thread per element of C, A and B read straight from global
// memory, generalised to the rectangular row-major layout of the CUDA SDK's matrixMul (lecture
// 002): A is M×K, B is K×N, C is M×N.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cuda_runtime.h>

// The lecture's BLOCK_SIZE 32: a 32×32 block of threads covers a 32×32 patch of C.
constexpr int NAIVE_BLOCK_SIZE = 32;

// T is float for "naive" and double for "naive_f64" (the lecture's second column of results).
template <typename T>
__global__ void MatrixMulNaiveKernel(const T* d_M, const T* d_N, T* d_P, int M, int N, int K) {
  // Calculate the row index of the d_P element and d_M, and the column index of d_P and d_N.
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  // The grid is rounded up to whole blocks, so threads past the edge of C do nothing.
  if ((Row < M) && (Col < N)) {
    T Pvalue = 0;
    // Each thread computes one element of the output: a row of d_M times a column of d_N.
    for (int k = 0; k < K; ++k) Pvalue += d_M[Row * K + k] * d_N[k * N + Col];
    d_P[Row * N + Col] = Pvalue;
  }
}

template <typename T>
void launch_naive(const T* A, const T* B, T* C, int M, int N, int K) {
  // ceil(N/32) × ceil(M/32) blocks: the lecture's N/threads.x, rounded up for partial blocks.
  dim3 dimBlock(NAIVE_BLOCK_SIZE, NAIVE_BLOCK_SIZE, 1);
  dim3 dimGrid((N + NAIVE_BLOCK_SIZE - 1) / NAIVE_BLOCK_SIZE,
               (M + NAIVE_BLOCK_SIZE - 1) / NAIVE_BLOCK_SIZE, 1);
  MatrixMulNaiveKernel<T><<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_naive(A, B, C, M, N, K);
}

void matmul_naive_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_naive(A, B, C, M, N, K);
}
