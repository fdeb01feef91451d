// Reference for step "padded" of assignment transpose: the lecture's mtran_coalesced with the
// tile padded to tile[TILE_DIM][TILE_DIM + 1] (lecture 001). Why the extra column: reading a
// column of an unpadded 32-wide tile touches addresses 32 floats apart, all in one of the 32
// shared-memory banks (a 32-way conflict); with rows 33 floats long, the column's elements fall
// in 32 different banks. Generalised from n×n to rows×cols with bounds checks in both phases.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// The lecture's TILE_DIM 32 and BLOCK_ROWS 8, as constants named for this file: every reference
// file is compiled into one translation unit, so a macro would clash.
constexpr int PADDED_TILE_DIM = 32;
constexpr int PADDED_BLOCK_ROWS = 8;

__global__ void mtran_padded(const float* idata, float* odata, int rows, int cols) {
  __shared__ float tile[PADDED_TILE_DIM][PADDED_TILE_DIM + 1];

  // Loading phase: element (y+i, x) of in goes to tile[threadIdx.y+i][threadIdx.x].
  int x = blockIdx.x * PADDED_TILE_DIM + threadIdx.x;
  int y = blockIdx.y * PADDED_TILE_DIM + threadIdx.y;
  int index_in = x + y * cols;
  for (int i = 0; i < PADDED_TILE_DIM; i += PADDED_BLOCK_ROWS)
    if (x < cols && y + i < rows) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * cols];

  // Storing phase: thread (x, y+i) of the transposed block writes out[y+i][x] = in[x][y+i].
  x = blockIdx.y * PADDED_TILE_DIM + threadIdx.x;  // now a column of out (a row of in)
  y = blockIdx.x * PADDED_TILE_DIM + threadIdx.y;  // now a row of out (a column of in)
  int index_out = x + y * rows;

  // Every thread, also those past the edge, reaches the barrier: a thread stores elements that
  // other threads loaded.
  __syncthreads();

  for (int i = 0; i < PADDED_TILE_DIM; i += PADDED_BLOCK_ROWS)
    if (x < rows && y + i < cols)
      odata[index_out + i * rows] = tile[threadIdx.x][threadIdx.y + i];
}

void transpose_padded(const float* in, float* out, int rows, int cols) {
  // ceil(cols/32) × ceil(rows/32) tiles of in, one block of 32×8 threads each.
  dim3 grid((cols + PADDED_TILE_DIM - 1) / PADDED_TILE_DIM, (rows + PADDED_TILE_DIM - 1) / PADDED_TILE_DIM, 1);
  dim3 threads(PADDED_TILE_DIM, PADDED_BLOCK_ROWS, 1);
  mtran_padded<<<grid, threads>>>(in, out, rows, cols);
}
