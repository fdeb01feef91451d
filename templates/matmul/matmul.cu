// Assignment matmul: C = A·B, row-major, A is M×K, B is K×N, C is M×N (lectures 002, 000, 003).
// Read ASSIGNMENT.md first. Fill in every TODO; `cugrade check matmul --submission matmul.cu` tells
// you how far you are. A, B and C are device pointers; launch and return (no copies, no sync).
#include <cuda_runtime.h>

#include "interface.cuh"

#define BLOCK_SIZE 32  // lecture 000's BLOCK_SIZE; Kirk & Hwu call it TILE_WIDTH

// Step "naive" (lecture 000's Global): one thread per element of C, reading A and B from global
// memory.
__global__ void matmulNaiveKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: Row from blockIdx.y/blockDim.y/threadIdx.y, Col from the .x parts; if Row < M and
  //       Col < N, C[Row*N + Col] = sum over k of A[Row*K + k] * B[k*N + Col].
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulNaiveKernel with enough blocks to cover every element of C
  //       (ceil(N/32.0) × ceil(M/32.0) blocks of 32×32 threads, for example).
}

// Step "padded" (lecture 000's SMEM-2): SMEM-1's transposed tiles, padded by one column.
__global__ void matmulPaddedKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: declare __shared__ float as[BLOCK_SIZE][BLOCK_SIZE + 1] and bs likewise (the + 1 is
  //       the point of this step); row = blockIdx.y*BLOCK_SIZE + ty, col = blockIdx.x*BLOCK_SIZE + tx;
  //       for every tile k0 = 0, 32, 64, ... < K:
  //         as[tx][ty] = A(row, k0 + tx) and bs[tx][ty] = B(k0 + ty, col), 0 when outside,
  //         __syncthreads(), sum += as[k][ty] * bs[tx][k] for k = 0..31, __syncthreads();
  //       then write C(row, col) if row < M and col < N.
}

void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulPaddedKernel with blocks of BLOCK_SIZE×BLOCK_SIZE threads,
  //       ceil(N/BLOCK_SIZE) × ceil(M/BLOCK_SIZE) of them.
}

// Step "tiled" (lecture 000's SMEM-3, Kirk & Hwu's tiled kernel): each block computes one
// BLOCK_SIZE×BLOCK_SIZE tile of C through shared memory, tiles read along rows.
__global__ void matmulTiledKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: declare __shared__ float ds_A[BLOCK_SIZE][BLOCK_SIZE] and ds_B likewise; Row and Col
  //       as in the naive kernel; then for every tile m along K (ceil(K/BLOCK_SIZE) of them):
  //         load one element of A's tile into ds_A[ty][tx] and one of B's into ds_B[ty][tx]
  //         (0 when outside the matrix), __syncthreads(), accumulate ds_A[ty][k] * ds_B[k][tx],
  //         __syncthreads();
  //       then write C[Row*N + Col] if Row < M and Col < N. Every thread must reach both
  //       __syncthreads(), also those outside C.
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulTiledKernel with blocks of BLOCK_SIZE×BLOCK_SIZE threads,
  //       ceil(N/BLOCK_SIZE) × ceil(M/BLOCK_SIZE) of them.
}

// Step "coarse" (lecture 000's SMEM-5): blocks of 32×8 threads, 4 elements of C per thread.
__global__ void matmulCoarseKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: the tiles of "tiled", but each thread (tx, ty with ty < 8) loads rows ty, ty + 8,
  //       ty + 16 and ty + 24 of both tiles, keeps four sums (one per row) and writes each of
  //       its four elements of C only if that row is < M (the last tile may have any number of
  //       rows, not only a multiple of 4) and col < N.
}

void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulCoarseKernel with blocks of BLOCK_SIZE × (BLOCK_SIZE / 4) threads,
  //       still ceil(N/BLOCK_SIZE) × ceil(M/BLOCK_SIZE) of them (one per 32×32 tile of C).
}
