// Assignment transpose: out = inᵀ, row-major, in is rows×cols, out is cols×rows (lecture 001).
// Read ASSIGNMENT.md first. Fill in every TODO; `cugrade check transpose --submission transpose.cu`
// tells you how far you are. in and out are device pointers; launch and return (no copies, no
// sync).
#include <cuda_runtime.h>

#include "interface.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

// Step "copy": the baseline. The same tiles and threads as the tiled transpose, but each element
// stays where it is: out[row*cols + col] = in[row*cols + col].
__global__ void copyKernel(const float* idata, float* odata, int rows, int cols) {
  // TODO: x = blockIdx.x*TILE_DIM + threadIdx.x, y = blockIdx.y*TILE_DIM + threadIdx.y; for
  //       i = 0, BLOCK_ROWS, 2*BLOCK_ROWS, ... < TILE_DIM, copy element (y+i, x) if x < cols and
  //       y+i < rows.
}

void copy_tiled(const float* in, float* out, int rows, int cols) {
  // TODO: launch copyKernel with ceil(cols/32.0) × ceil(rows/32.0) blocks of TILE_DIM×BLOCK_ROWS
  //       threads.
}

// Step "naive": the lecture's mtran, one thread per element.
__global__ void mtran(const float* idata, float* odata, int rows, int cols) {
  // TODO: x (column of in) and y (row of in) from blockIdx, blockDim and threadIdx; if x < cols
  //       and y < rows, odata[x*rows + y] = idata[y*cols + x].
}

void transpose_naive(const float* in, float* out, int rows, int cols) {
  // TODO: launch mtran with enough blocks to cover every element of in (32×8 threads each, say).
}

// Step "coalesced": the lecture's mtran_coalesced, through a 32×32 tile in shared memory.
__global__ void mtran_coalesced(const float* idata, float* odata, int rows, int cols) {
  // TODO: declare __shared__ float tile[TILE_DIM][TILE_DIM];
  //       loading phase: as in copyKernel, tile[threadIdx.y+i][threadIdx.x] = element (y+i, x)
  //         of in, only where x < cols and y+i < rows;
  //       __syncthreads() — reached by every thread of the block, also those past the edge;
  //       storing phase: x = blockIdx.y*TILE_DIM + threadIdx.x, y = blockIdx.x*TILE_DIM +
  //         threadIdx.y; odata[(y+i)*rows + x] = tile[threadIdx.x][threadIdx.y+i], only where
  //         x < rows and y+i < cols.
}

void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  // TODO: launch mtran_coalesced with ceil(cols/32.0) × ceil(rows/32.0) blocks of
  //       TILE_DIM×BLOCK_ROWS threads.
}

// Step "padded": mtran_coalesced with one extra column in the tile.
__global__ void mtran_padded(const float* idata, float* odata, int rows, int cols) {
  // TODO: the coalesced kernel with __shared__ float tile[TILE_DIM][TILE_DIM + 1]: reading a
  //       column of the tile then touches 32 different shared-memory banks.
}

void transpose_padded(const float* in, float* out, int rows, int cols) {
  // TODO: launch mtran_padded like transpose_coalesced.
}
