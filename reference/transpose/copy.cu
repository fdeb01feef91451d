// Reference for step "copy" of assignment transpose: the lecture's bandwidth baseline (lecture
// 001, "pokud v rámci bloků pouze kopírujeme"): the tiled transpose's blocks and indexing with
// the transposition left out, out[y*cols + x] = in[y*cols + x]. What no transpose can beat.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// The lecture's TILE_DIM 32 and BLOCK_ROWS 8, as constants named for this file: every reference
// file is compiled into one translation unit, so a shared name (or a macro) would clash.
constexpr int COPY_TILE_DIM = 32;
constexpr int COPY_BLOCK_ROWS = 8;

__global__ void copyTiledKernel(const float* idata, float* odata, int rows, int cols) {
  int x = blockIdx.x * COPY_TILE_DIM + threadIdx.x;
  int y = blockIdx.y * COPY_TILE_DIM + threadIdx.y;
  int index = x + y * cols;
  // Each of the 32×8 threads copies 4 elements of the 32×32 tile, 8 rows apart. The grid is
  // rounded up to whole tiles, so elements past the edge of the matrix are skipped.
  for (int i = 0; i < COPY_TILE_DIM; i += COPY_BLOCK_ROWS)
    if (x < cols && y + i < rows) odata[index + i * cols] = idata[index + i * cols];
}

void copy_tiled(const float* in, float* out, int rows, int cols) {
  // ceil(cols/32) × ceil(rows/32) tiles, one block of 32×8 threads each.
  dim3 grid((cols + COPY_TILE_DIM - 1) / COPY_TILE_DIM, (rows + COPY_TILE_DIM - 1) / COPY_TILE_DIM, 1);
  dim3 threads(COPY_TILE_DIM, COPY_BLOCK_ROWS, 1);
  copyTiledKernel<<<grid, threads>>>(in, out, rows, cols);
}
