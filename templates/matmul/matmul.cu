// Assignment matmul: C = A·B, row-major, A is M×K, B is K×N, C is M×N (lectures 002, 000, 003).
// Read README.md first. Fill in every TODO; `cugrade check matmul --submission matmul.cu` tells
// you how far you are. A, B and C are device pointers; launch and return (no copies, no sync).
#include <cuda_runtime.h>

#include "interface.cuh"

#define TILE_WIDTH 32

// Step "naive": one thread per element of C, reading A and B from global memory.
__global__ void matmulNaiveKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: Row from blockIdx.y/blockDim.y/threadIdx.y, Col from the .x parts; if Row < M and
  //       Col < N, C[Row*N + Col] = sum over k of A[Row*K + k] * B[k*N + Col].
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulNaiveKernel with enough blocks to cover every element of C
  //       (ceil(N/32.0) × ceil(M/32.0) blocks of 32×32 threads, for example).
}

// Step "tiled": each block computes one TILE_WIDTH×TILE_WIDTH tile of C through shared memory.
__global__ void matmulTiledKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: declare __shared__ float ds_A[TILE_WIDTH][TILE_WIDTH] and ds_B likewise; Row and Col
  //       as in the naive kernel; then for every tile m along K (ceil(K/TILE_WIDTH) of them):
  //         load one element of A's tile into ds_A[ty][tx] and one of B's into ds_B[ty][tx]
  //         (0 when outside the matrix), __syncthreads(), accumulate ds_A[ty][k] * ds_B[k][tx],
  //         __syncthreads();
  //       then write C[Row*N + Col] if Row < M and Col < N. Every thread must reach both
  //       __syncthreads(), also those outside C.
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: launch matmulTiledKernel with blocks of TILE_WIDTH×TILE_WIDTH threads,
  //       ceil(N/TILE_WIDTH) × ceil(M/TILE_WIDTH) of them.
}
