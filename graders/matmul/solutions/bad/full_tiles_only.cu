// Known bad: the tiled step launches the lecture's grid, Width/TILE_WIDTH rounded down (kept at
// least 1 so small matrices still launch): the partial tiles at the right and bottom of C are
// never computed. The kernel itself is correct, and so are the other three steps.
#include "interface.cuh"

#define TILE_WIDTH 32

__global__ void MatrixMulKernel(const float* d_M, const float* d_N, float* d_P, int M, int N, int K) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < M) && (Col < N)) {
    float Pvalue = 0;
    for (int k = 0; k < K; ++k) Pvalue += d_M[Row * K + k] * d_N[k * N + Col];
    d_P[Row * N + Col] = Pvalue;
  }
}

__global__ void MatrixMulTiledKernel(const float* d_M, const float* d_N, float* d_P, int M, int N, int K) {
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    ds_M[ty][tx] = (Row < M && m * TILE_WIDTH + tx < K) ? d_M[Row * K + m * TILE_WIDTH + tx] : 0;
    ds_N[ty][tx] = (Col < N && m * TILE_WIDTH + ty < K) ? d_N[Col + (m * TILE_WIDTH + ty) * N] : 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += ds_M[ty][k] * ds_N[k][tx];
    __syncthreads();
  }
  if (Row < M && Col < N) d_P[Row * N + Col] = Pvalue;
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 dimGrid(N / TILE_WIDTH > 0 ? N / TILE_WIDTH : 1, M / TILE_WIDTH > 0 ? M / TILE_WIDTH : 1, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulTiledKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

__global__ void MatrixMulPaddedKernel(const float* d_M, const float* d_N, float* d_P, int M, int N, int K) {
  __shared__ float as[TILE_WIDTH][TILE_WIDTH + 1];
  __shared__ float bs[TILE_WIDTH][TILE_WIDTH + 1];
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = blockIdx.y * TILE_WIDTH + ty;
  int Col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0;
  for (int m = 0; m < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    as[tx][ty] = (Row < M && m * TILE_WIDTH + tx < K) ? d_M[Row * K + m * TILE_WIDTH + tx] : 0;
    bs[tx][ty] = (Col < N && m * TILE_WIDTH + ty < K) ? d_N[Col + (m * TILE_WIDTH + ty) * N] : 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) sum += as[k][ty] * bs[tx][k];
    __syncthreads();
  }
  if (Row < M && Col < N) d_P[Row * N + Col] = sum;
}

__global__ void MatrixMulCoarseKernel(const float* d_M, const float* d_N, float* d_P, int M, int N, int K) {
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = blockIdx.y * TILE_WIDTH + ty;
  int Col = blockIdx.x * TILE_WIDTH + tx;
  float sum[4] = {0, 0, 0, 0};
  for (int m = 0; m < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    for (int r = 0; r < 4; ++r) {
      int row = Row + 8 * r, kb = m * TILE_WIDTH + ty + 8 * r;
      ds_M[ty + 8 * r][tx] = (row < M && m * TILE_WIDTH + tx < K) ? d_M[row * K + m * TILE_WIDTH + tx] : 0;
      ds_N[ty + 8 * r][tx] = (Col < N && kb < K) ? d_N[kb * N + Col] : 0;
    }
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      for (int r = 0; r < 4; ++r) sum[r] += ds_M[ty + 8 * r][k] * ds_N[k][tx];
    __syncthreads();
  }
  for (int r = 0; r < 4; ++r)
    if (Row + 8 * r < M && Col < N) d_P[(Row + 8 * r) * N + Col] = sum[r];
}

void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulPaddedKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH / 4, 1);
  MatrixMulCoarseKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}
