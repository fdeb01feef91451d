// Reference for step "tiled" of assignment matmul (and, in double, the reference-only step
// "tiled_f64"): Kirk & Hwu's tiled MatrixMulKernel (lecture 003: ds_M/ds_N tiles of TILE_WIDTH,
// two __syncthreads() per phase), which is also lecture 000's SMEM-3 (row access
// as[ty][k]*bs[k][tx]: a warp reads one broadcast word of as and 32 consecutive words of bs, no
// bank conflicts), generalised to the rectangular row-major layout of the CUDA SDK's matrixMul
// (lecture 002): A is M×K, B is K×N, C is M×N.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cuda_runtime.h>

// The lecture's `#define TILE_WIDTH 32`, as a constant: a macro would leak out of the namespace
// this file is compiled in and clash with anything else named TILE_WIDTH.
constexpr int TILE_WIDTH = 32;

// T is float for "tiled" and double for "tiled_f64".
template <typename T>
__global__ void MatrixMulTiledKernel(const T* d_M, const T* d_N, T* d_P, int M, int N, int K) {
  __shared__ T ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ T ds_N[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // Identify the row and column of the d_P element to work on.
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  T Pvalue = 0;

  // Loop over the d_M and d_N tiles required to compute the d_P element. The lecture's
  // Width/TILE_WIDTH phases become ceil(K/TILE_WIDTH): the last tile along K may be partial.
  for (int m = 0; m < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    // Collaborative loading of the tiles into shared memory. Elements outside A or B (partial
    // tiles at the edges) are loaded as 0, so they add nothing to the dot product and the inner
    // loop below can always run over the whole tile.
    int aCol = m * TILE_WIDTH + tx;
    int bRow = m * TILE_WIDTH + ty;
    ds_M[ty][tx] = (Row < M && aCol < K) ? d_M[Row * K + aCol] : T(0);
    ds_N[ty][tx] = (bRow < K && Col < N) ? d_N[bRow * N + Col] : T(0);
    // Every thread of the block, also those outside C, reaches both barriers: the first makes
    // the whole tile visible before anyone reads it, the second keeps the next phase from
    // overwriting it while others still read.
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += ds_M[ty][k] * ds_N[k][tx];
    __syncthreads();
  }
  if (Row < M && Col < N) d_P[Row * N + Col] = Pvalue;
}

template <typename T>
void launch_tiled(const T* A, const T* B, T* C, int M, int N, int K) {
  // One block of TILE_WIDTH×TILE_WIDTH threads per tile of C, ceil(N/32) × ceil(M/32) blocks.
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  MatrixMulTiledKernel<T><<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  launch_tiled(A, B, C, M, N, K);
}

void matmul_tiled_f64(const double* A, const double* B, double* C, int M, int N, int K) {
  launch_tiled(A, B, C, M, N, K);
}
