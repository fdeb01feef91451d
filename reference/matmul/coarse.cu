// Reference for step "coarse" of assignment matmul (and, in double, the reference-only step
// "coarse_f64"): lecture 000's variant SMEM-5 (kernel_smem_5), more work per thread: blocks of
// 32×8 threads (`dim3 threads_5(BLOCK_SIZE, BLOCK_SIZE / 4)`), each still computing a 32×32 tile
// of C, each thread four of its elements, rows ty, ty + 8, ty + 16 and ty + 24 of the tile. Four
// independent sums per thread (instruction-level parallelism) and four outputs per element of bs
// read from shared memory: the fastest of the lecture's variants. Generalised to M×K · K×N of
// any size: partial tiles are loaded as 0 and each of the four outputs is written only inside C
// (the last tile's rows need not all exist, whether or not M is a multiple of 4).
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cuda_runtime.h>

constexpr int COARSE_BLOCK_SIZE = 32;
constexpr int COARSE_STEP = COARSE_BLOCK_SIZE / 4;  // the lecture's literal 8: rows 8 apart

template <typename T>
__global__ void kernel_smem_5(const T* a, const T* b, T* c, int M, int N, int K) {
  constexpr int BS = COARSE_BLOCK_SIZE, S = COARSE_STEP;
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;  // ty < 8
  int row = BS * by + ty, col = BS * bx + tx;  // rows row, row + 8, row + 16, row + 24
  T sum1 = 0, sum2 = 0, sum3 = 0, sum4 = 0;
  __shared__ T as[BS][BS];
  __shared__ T bs[BS][BS];
  for (int k0 = 0; k0 < K; k0 += BS) {
    // Four rows of each tile per thread, 8 apart; 0 outside A or B.
    as[ty][tx] = (row < M && k0 + tx < K) ? a[row * K + k0 + tx] : T(0);
    bs[ty][tx] = (k0 + ty < K && col < N) ? b[(k0 + ty) * N + col] : T(0);
    as[ty + S][tx] = (row + S < M && k0 + tx < K) ? a[(row + S) * K + k0 + tx] : T(0);
    bs[ty + S][tx] = (k0 + ty + S < K && col < N) ? b[(k0 + ty + S) * N + col] : T(0);
    as[ty + 2 * S][tx] = (row + 2 * S < M && k0 + tx < K) ? a[(row + 2 * S) * K + k0 + tx] : T(0);
    bs[ty + 2 * S][tx] = (k0 + ty + 2 * S < K && col < N) ? b[(k0 + ty + 2 * S) * N + col] : T(0);
    as[ty + 3 * S][tx] = (row + 3 * S < M && k0 + tx < K) ? a[(row + 3 * S) * K + k0 + tx] : T(0);
    bs[ty + 3 * S][tx] = (k0 + ty + 3 * S < K && col < N) ? b[(k0 + ty + 3 * S) * N + col] : T(0);
    __syncthreads();
    for (int k = 0; k < BS; k++) {
      sum1 += as[ty][k] * bs[k][tx];
      sum2 += as[ty + S][k] * bs[k][tx];
      sum3 += as[ty + 2 * S][k] * bs[k][tx];
      sum4 += as[ty + 3 * S][k] * bs[k][tx];
    }
    __syncthreads();
  }
  if (col < N) {
    if (row < M) c[row * N + col] = sum1;
    if (row + S < M) c[(row + S) * N + col] = sum2;
    if (row + 2 * S < M) c[(row + 2 * S) * N + col] = sum3;
    if (row + 3 * S < M) c[(row + 3 * S) * N + col] = sum4;
  }
}

template <typename T>
void launch_coarse(const T* A, const T* B, T* C, int M, int N, int K) {
  // Still one block per 32×32 tile of C, now of 32×8 threads.
  dim3 threads_5(COARSE_BLOCK_SIZE, COARSE_BLOCK_SIZE / 4);
  dim3 blocks((N + COARSE_BLOCK_SIZE - 1) / COARSE_BLOCK_SIZE, (M + COARSE_BLOCK_SIZE - 1) / COARSE_BLOCK_SIZE);
  kernel_smem_5<T><<<blocks, threads_5>>>(A, B, C, M, N, K);
}

void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_coarse(A, B, C, M, N, K);
}

void matmul_coarse_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_coarse(A, B, C, M, N, K);
}
