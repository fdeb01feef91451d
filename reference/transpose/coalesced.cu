// Reference for step "coalesced" of assignment transpose: the lecture's mtran_coalesced (lecture
// 001): a 32×32 tile of `in` read row by row into __shared__ memory by 32×8 threads, then written
// row by row into its transposed place in `out`, so both global accesses are coalesced. Reading
// the tile by columns, tile[threadIdx.x][...], puts a whole warp on one shared-memory bank; the
// "padded" step removes that. Generalised from n×n to rows×cols with bounds checks in both phases.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// The lecture's TILE_DIM 32 and BLOCK_ROWS 8 (its fastest shape), as constants named for this
// file: every reference file is compiled into one translation unit, so a macro would clash.
constexpr int COALESCED_TILE_DIM = 32;
constexpr int COALESCED_BLOCK_ROWS = 8;

__global__ void mtran_coalesced(const float* idata, float* odata, int rows, int cols) {
  __shared__ float tile[COALESCED_TILE_DIM][COALESCED_TILE_DIM];

  // Loading phase: element (y+i, x) of in goes to tile[threadIdx.y+i][threadIdx.x].
  int x = blockIdx.x * COALESCED_TILE_DIM + threadIdx.x;
  int y = blockIdx.y * COALESCED_TILE_DIM + threadIdx.y;
  int index_in = x + y * cols;
  for (int i = 0; i < COALESCED_TILE_DIM; i += COALESCED_BLOCK_ROWS)
    if (x < cols && y + i < rows) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * cols];

  // Storing phase: the block's tile lands at block (blockIdx.y, blockIdx.x) of out, and thread
  // (x, y+i) of it writes out[y+i][x] = in[x][y+i] = tile[threadIdx.x][threadIdx.y+i].
  x = blockIdx.y * COALESCED_TILE_DIM + threadIdx.x;  // now a column of out (a row of in)
  y = blockIdx.x * COALESCED_TILE_DIM + threadIdx.y;  // now a row of out (a column of in)
  int index_out = x + y * rows;

  // Every thread, also those past the edge, reaches the barrier: a thread stores elements that
  // other threads loaded.
  __syncthreads();

  for (int i = 0; i < COALESCED_TILE_DIM; i += COALESCED_BLOCK_ROWS)
    if (x < rows && y + i < cols)
      odata[index_out + i * rows] = tile[threadIdx.x][threadIdx.y + i];
}

void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  // ceil(cols/32) × ceil(rows/32) tiles of in, one block of 32×8 threads each.
  dim3 grid((cols + COALESCED_TILE_DIM - 1) / COALESCED_TILE_DIM,
            (rows + COALESCED_TILE_DIM - 1) / COALESCED_TILE_DIM, 1);
  dim3 threads(COALESCED_TILE_DIM, COALESCED_BLOCK_ROWS, 1);
  mtran_coalesced<<<grid, threads>>>(in, out, rows, cols);
}
