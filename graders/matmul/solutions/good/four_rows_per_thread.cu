// Known good, a different tiling: 16×16 blocks for the naive step; lecture 000's SMEM-5 (32×32
// tiles computed by 32×8 threads, each thread loading and computing 4 rows of the tile, 8 apart)
// for both the tiled and the coarse step; and for the padded step, 32×32 tiles padded to
// [32][33] but loaded by 32×8 threads, 4 rows each. Bounds checks and zero-padded partial tiles.
#include "interface.cuh"

constexpr int BS = 32;      // tile edge
constexpr int ROWS = 4;     // rows of the tile per thread
constexpr int STEP = BS / ROWS;

__global__ void naive16(const float* a, const float* b, float* c, int M, int N, int K) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += a[row * K + k] * b[k * N + col];
  c[row * N + col] = sum;
}

__global__ void smem5(const float* a, const float* b, float* c, int M, int N, int K) {
  __shared__ float as[BS][BS];
  __shared__ float bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float sum[ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t = 0; t < K; t += BS) {
    for (int r = 0; r < ROWS; ++r) {
      const int row = row0 + r * STEP, ka = t + tx, kb = t + ty + r * STEP;
      as[ty + r * STEP][tx] = (row < M && ka < K) ? a[row * K + ka] : 0.0f;
      bs[ty + r * STEP][tx] = (kb < K && col < N) ? b[kb * N + col] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      for (int r = 0; r < ROWS; ++r) sum[r] += as[ty + r * STEP][k] * bs[k][tx];
    __syncthreads();
  }
  for (int r = 0; r < ROWS; ++r)
    if (row0 + r * STEP < M && col < N) c[(row0 + r * STEP) * N + col] = sum[r];
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  naive16<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  smem5<<<dim3((N + BS - 1) / BS, (M + BS - 1) / BS), dim3(BS, STEP)>>>(A, B, C, M, N, K);
}

__global__ void padded4(const float* a, const float* b, float* c, int M, int N, int K) {
  __shared__ float as[BS][BS + 1];
  __shared__ float bs[BS][BS + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BS, col0 = blockIdx.x * BS;
  float sum[ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t = 0; t < K; t += BS) {
    // Element (i, tx) of each tile, stored transposed at [tx][i], for the rows i of this thread.
    for (int r = 0; r < ROWS; ++r) {
      const int i = ty + r * STEP;
      as[tx][i] = (row0 + i < M && t + tx < K) ? a[(row0 + i) * K + t + tx] : 0.0f;
      bs[tx][i] = (t + i < K && col0 + tx < N) ? b[(t + i) * N + col0 + tx] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      for (int r = 0; r < ROWS; ++r) sum[r] += as[k][ty + r * STEP] * bs[tx][k];
    __syncthreads();
  }
  for (int r = 0; r < ROWS; ++r)
    if (row0 + ty + r * STEP < M && col0 + tx < N) c[(row0 + ty + r * STEP) * N + col0 + tx] = sum[r];
}

void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  padded4<<<dim3((N + BS - 1) / BS, (M + BS - 1) / BS), dim3(BS, STEP)>>>(A, B, C, M, N, K);
}

void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  smem5<<<dim3((N + BS - 1) / BS, (M + BS - 1) / BS), dim3(BS, STEP)>>>(A, B, C, M, N, K);
}
