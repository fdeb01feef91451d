// Known bad: square-matrix indexing on rectangles, B's rows taken K apart
// (B[k*K + Col] instead of B[k*N + Col]). Right only where N = K; where (K−1)·K + N > K·N
// it reads past the end of B.
// One naive kernel (one thread per element of C) serves every step.
#include "interface.cuh"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < M) && (Col < N)) {
    float Pvalue = 0;
    for (int k = 0; k < K; ++k) Pvalue += A[Row * K + k] * B[k * K + Col];
    C[Row * N + Col] = Pvalue;
  }
}

void launch(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { launch(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { launch(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { launch(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { launch(A, B, C, M, N, K); }
