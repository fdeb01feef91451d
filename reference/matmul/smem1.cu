// Reference for the reference-only steps "smem1" and "smem1_f64" of assignment matmul: lecture
// 000's variant SMEM-1 (kernel_smem_1), the first shared-memory version and the lecture's example
// of bank conflicts. Each 32×32 block computes a 32×32 tile of C from 32×32 tiles of A and B in
// __shared__ memory, but the tiles are stored transposed (as[tx][ty]) and read along columns
// (bs[tx][k]): the 32 threads of a warp (consecutive tx) touch 32 words 32 words apart, all in
// one bank, so each such access is replayed 32 times. On the K40c this made SMEM-1 slower than
// the global-memory version; SMEM-2 (padded.cu) removes the conflicts with one extra column.
// Generalised to M×K · K×N of any size: partial tiles are loaded as 0 and only threads inside C
// write. cugrade compiles this file inside namespace cugrade_reference with the CUDA headers
// already included, so it uses only the standard headers listed there and defines no macros.
#include "reference_only.cuh"

#include <cuda_runtime.h>

// The lecture's BLOCK_SIZE (a constant: a macro would leak out of the namespace).
constexpr int SMEM1_BLOCK_SIZE = 32;

template <typename T>
__global__ void kernel_smem_1(const T* a, const T* b, T* c, int M, int N, int K) {
  constexpr int BS = SMEM1_BLOCK_SIZE;
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  // The lecture's aBegin and bBegin: this block's rows of A and columns of B; this thread's
  // element of C is (row, col).
  int row = BS * by + ty, col = BS * bx + tx;
  T sum = 0;
  __shared__ T as[BS][BS];
  __shared__ T bs[BS][BS];
  // The lecture's `for (ia = aBegin, ib = bBegin; ia <= aEnd; ia += aStep, ib += bStep)`: one
  // tile of A (columns k0..k0+31) and of B (rows k0..k0+31) per pass, ceil(K/32) passes.
  for (int k0 = 0; k0 < K; k0 += BS) {
    // as[tx][ty] = a[ia + n*ty + tx]: element (ty, tx) of each tile, stored transposed; 0 outside
    // A or B, so the inner loop can always run over the whole tile.
    as[tx][ty] = (row < M && k0 + tx < K) ? a[row * K + k0 + tx] : T(0);
    bs[tx][ty] = (k0 + ty < K && col < N) ? b[(k0 + ty) * N + col] : T(0);
    // Every thread, also those outside C, reaches both barriers.
    __syncthreads();
    // as[k][ty] is A(row, k0+k) (one address per warp: a broadcast); bs[tx][k] is B(k0+k, col),
    // a column of bs across the warp: the bank conflict.
    for (int k = 0; k < BS; k++) sum += as[k][ty] * bs[tx][k];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = sum;
}

template <typename T>
void launch_smem1(const T* A, const T* B, T* C, int M, int N, int K) {
  dim3 threads(SMEM1_BLOCK_SIZE, SMEM1_BLOCK_SIZE);
  dim3 blocks((N + SMEM1_BLOCK_SIZE - 1) / SMEM1_BLOCK_SIZE, (M + SMEM1_BLOCK_SIZE - 1) / SMEM1_BLOCK_SIZE);
  kernel_smem_1<T><<<blocks, threads>>>(A, B, C, M, N, K);
}

void matmul_smem1(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_smem1(A, B, C, M, N, K);
}

void matmul_smem1_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_smem1(A, B, C, M, N, K);
}
