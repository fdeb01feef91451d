// Reference for step "padded" of assignment matmul (and, in double, the reference-only step
// "padded_f64"): lecture 000's variant SMEM-2, which is SMEM-1 (smem1.cu) with the tiles padded
// to [BLOCK_SIZE][BLOCK_SIZE + 1]. The accesses stay those of SMEM-1 (tiles stored transposed,
// read along columns), but the extra word per row shifts each row of a tile by one bank, so the
// 32 elements of a column lie in 32 different banks and the 32-way conflict is gone (on the K40c:
// 150 ms → 56 ms in float). Generalised to M×K · K×N of any size: partial tiles are loaded as 0
// and only threads inside C write.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cuda_runtime.h>

constexpr int PADDED_BLOCK_SIZE = 32;

template <typename T>
__global__ void kernel_smem_2(const T* a, const T* b, T* c, int M, int N, int K) {
  constexpr int BS = PADDED_BLOCK_SIZE;
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = BS * by + ty, col = BS * bx + tx;
  T sum = 0;
  // The one change from SMEM-1: a 33rd column that is never used. Element [i][j] now lies in
  // bank (33·i + j) mod 32 = (i + j) mod 32, so a column (fixed j, i = 0..31) spans every bank.
  __shared__ T as[BS][BS + 1];
  __shared__ T bs[BS][BS + 1];
  for (int k0 = 0; k0 < K; k0 += BS) {
    // As in SMEM-1: element (ty, tx) of each tile stored transposed, 0 outside A or B.
    as[tx][ty] = (row < M && k0 + tx < K) ? a[row * K + k0 + tx] : T(0);
    bs[tx][ty] = (k0 + ty < K && col < N) ? b[(k0 + ty) * N + col] : T(0);
    __syncthreads();
    for (int k = 0; k < BS; k++) sum += as[k][ty] * bs[tx][k];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = sum;
}

template <typename T>
void launch_padded(const T* A, const T* B, T* C, int M, int N, int K) {
  dim3 threads(PADDED_BLOCK_SIZE, PADDED_BLOCK_SIZE);
  dim3 blocks((N + PADDED_BLOCK_SIZE - 1) / PADDED_BLOCK_SIZE, (M + PADDED_BLOCK_SIZE - 1) / PADDED_BLOCK_SIZE);
  kernel_smem_2<T><<<blocks, threads>>>(A, B, C, M, N, K);
}

void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_padded(A, B, C, M, N, K);
}

void matmul_padded_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_padded(A, B, C, M, N, K);
}
