// Reference for the reference-only steps "smem4" and "smem4_f64" of assignment matmul: lecture
// 000's variant SMEM-4 (kernel_smem_4), SMEM-3 (tiled.cu) with half the threads: blocks of
// 32×16 (`dim3 threads_4(BLOCK_SIZE, BLOCK_SIZE / 2)`), each thread loading two elements of each
// tile and computing two elements of C, rows ty and ty + 16 of the tile. The two sums are
// independent, so the hardware can overlap their arithmetic (instruction-level parallelism), and
// each element of bs read from shared memory serves two outputs. Generalised to M×K · K×N of any
// size: partial tiles are loaded as 0 and each of the two outputs is written only inside C.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "reference_only.cuh"

#include <cuda_runtime.h>

constexpr int SMEM4_BLOCK_SIZE = 32;
constexpr int SMEM4_HALF = SMEM4_BLOCK_SIZE / 2;  // the lecture's literal 16

template <typename T>
__global__ void kernel_smem_4(const T* a, const T* b, T* c, int M, int N, int K) {
  constexpr int BS = SMEM4_BLOCK_SIZE, H = SMEM4_HALF;
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;  // ty < 16
  int row = BS * by + ty, col = BS * bx + tx;  // the first of this thread's rows; the second is row + 16
  T sum1 = 0, sum2 = 0;
  __shared__ T as[BS][BS];
  __shared__ T bs[BS][BS];
  for (int k0 = 0; k0 < K; k0 += BS) {
    // Rows ty and ty + 16 of each tile; 0 outside A or B.
    as[ty][tx] = (row < M && k0 + tx < K) ? a[row * K + k0 + tx] : T(0);
    bs[ty][tx] = (k0 + ty < K && col < N) ? b[(k0 + ty) * N + col] : T(0);
    as[ty + H][tx] = (row + H < M && k0 + tx < K) ? a[(row + H) * K + k0 + tx] : T(0);
    bs[ty + H][tx] = (k0 + ty + H < K && col < N) ? b[(k0 + ty + H) * N + col] : T(0);
    __syncthreads();
    for (int k = 0; k < BS; k++) {
      sum1 += as[ty][k] * bs[k][tx];
      sum2 += as[ty + H][k] * bs[k][tx];
    }
    __syncthreads();
  }
  if (col < N) {
    if (row < M) c[row * N + col] = sum1;
    if (row + H < M) c[(row + H) * N + col] = sum2;
  }
}

template <typename T>
void launch_smem4(const T* A, const T* B, T* C, int M, int N, int K) {
  // Still one block per 32×32 tile of C, now of 32×16 threads.
  dim3 threads_4(SMEM4_BLOCK_SIZE, SMEM4_BLOCK_SIZE / 2);
  dim3 blocks((N + SMEM4_BLOCK_SIZE - 1) / SMEM4_BLOCK_SIZE, (M + SMEM4_BLOCK_SIZE - 1) / SMEM4_BLOCK_SIZE);
  kernel_smem_4<T><<<blocks, threads_4>>>(A, B, C, M, N, K);
}

void matmul_smem4(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_smem4(A, B, C, M, N, K);
}

void matmul_smem4_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_smem4(A, B, C, M, N, K);
}
