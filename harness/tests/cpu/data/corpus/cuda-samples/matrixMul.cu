// Corpus item (matmul): Samples/0_Introduction/matrixMul/matrixMul.cu. Every step launches the
// sample's MatrixMulCUDA<BLOCK_SIZE> with the sample's grid, dimsB.x / threads.x by
// dimsA.y / threads.y (whole tiles only: the kernel has no bounds checks); naive uses
// BLOCK_SIZE 16, the others 32, the two sizes the sample's main chooses from.
#include "common_headers.cuh"
#define main matrixMul_sample_main
#include "Samples/0_Introduction/matrixMul/matrixMul.cu"
#undef main

template <int block_size> static void sample_launch(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threads(block_size, block_size);
  dim3 grid(N / threads.x, M / threads.y);
  MatrixMulCUDA<block_size><<<grid, threads>>>(C, const_cast<float*>(A), const_cast<float*>(B), K, N);
}
void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { sample_launch<16>(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { sample_launch<32>(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { sample_launch<32>(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { sample_launch<32>(A, B, C, M, N, K); }
