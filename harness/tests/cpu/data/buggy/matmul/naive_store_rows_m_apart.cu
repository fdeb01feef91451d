// Bug (index): the naive kernel stores C's rows M apart (d_P[Row * M + Col], M taken for the
// row length) where they are N apart: right only where M = N.
#include "interface.cuh"

#define TILE_WIDTH 32
#define BLOCK_SIZE 32

__global__ void MatrixMulKernel(const float* d_M, const float* d_N, float* d_P, int M, int N, int K) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < M) && (Col < N)) {
    float Pvalue = 0;
    for (int k = 0; k < K; ++k) Pvalue += d_M[Row * K + k] * d_N[k * N + Col];
    d_P[Row * M + Col] = Pvalue;
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
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulTiledKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

// Lecture 000's kernel_smem_2: SMEM-1's transposed tiles, padded by one column.
__global__ void kernel_smem_2(const float* a, const float* b, float* c, int M, int N, int K) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = K * BLOCK_SIZE * by, aEnd = aBegin + K - 1;
  int bBegin = BLOCK_SIZE * bx, aStep = BLOCK_SIZE, bStep = BLOCK_SIZE * N;
  int row = BLOCK_SIZE * by + ty, col = bBegin + tx;
  float sum = 0.0f;
  __shared__ float as[BLOCK_SIZE][BLOCK_SIZE + 1];
  __shared__ float bs[BLOCK_SIZE][BLOCK_SIZE + 1];
  for (int ia = aBegin, ib = bBegin, k0 = 0; ia <= aEnd; ia += aStep, ib += bStep, k0 += BLOCK_SIZE) {
    as[tx][ty] = (row < M && k0 + tx < K) ? a[ia + K * ty + tx] : 0.0f;
    bs[tx][ty] = (k0 + ty < K && col < N) ? b[ib + N * ty + tx] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; k++) sum += as[k][ty] * bs[tx][k];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = sum;
}

// Lecture 000's kernel_smem_5: 32×8 threads, rows ty, ty + 8, ty + 16 and ty + 24 of the tile.
__global__ void kernel_smem_5(const float* a, const float* b, float* c, int M, int N, int K) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = K * BLOCK_SIZE * by, aEnd = aBegin + K - 1;
  int bBegin = BLOCK_SIZE * bx, aStep = BLOCK_SIZE, bStep = BLOCK_SIZE * N;
  int row = BLOCK_SIZE * by + ty, col = bBegin + tx;
  float sum1 = 0.0f, sum2 = 0.0f, sum3 = 0.0f, sum4 = 0.0f;
  __shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
  for (int ia = aBegin, ib = bBegin, k0 = 0; ia <= aEnd; ia += aStep, ib += bStep, k0 += BLOCK_SIZE) {
    bool ka = k0 + tx < K, in = col < N;
    as[ty][tx] = (row < M && ka) ? a[ia + K * ty + tx] : 0.0f;
    bs[ty][tx] = (k0 + ty < K && in) ? b[ib + N * ty + tx] : 0.0f;
    as[ty + 8][tx] = (row + 8 < M && ka) ? a[ia + K * (ty + 8) + tx] : 0.0f;
    bs[ty + 8][tx] = (k0 + ty + 8 < K && in) ? b[ib + N * (ty + 8) + tx] : 0.0f;
    as[ty + 16][tx] = (row + 16 < M && ka) ? a[ia + K * (ty + 16) + tx] : 0.0f;
    bs[ty + 16][tx] = (k0 + ty + 16 < K && in) ? b[ib + N * (ty + 16) + tx] : 0.0f;
    as[ty + 24][tx] = (row + 24 < M && ka) ? a[ia + K * (ty + 24) + tx] : 0.0f;
    bs[ty + 24][tx] = (k0 + ty + 24 < K && in) ? b[ib + N * (ty + 24) + tx] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; k++) {
      sum1 += as[ty][k] * bs[k][tx];
      sum2 += as[ty + 8][k] * bs[k][tx];
      sum3 += as[ty + 16][k] * bs[k][tx];
      sum4 += as[ty + 24][k] * bs[k][tx];
    }
    __syncthreads();
  }
  if (col < N) {
    if (row < M) c[row * N + col] = sum1;
    if (row + 8 < M) c[(row + 8) * N + col] = sum2;
    if (row + 16 < M) c[(row + 16) * N + col] = sum3;
    if (row + 24 < M) c[(row + 24) * N + col] = sum4;
  }
}

void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 blocks((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
  kernel_smem_2<<<blocks, threads>>>(A, B, C, M, N, K);
}

void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threads_5(BLOCK_SIZE, BLOCK_SIZE / 4);
  dim3 blocks((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
  kernel_smem_5<<<blocks, threads_5>>>(A, B, C, M, N, K);
}
