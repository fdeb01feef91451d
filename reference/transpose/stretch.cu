// Stretch reference of assignment transpose (beyond the lecture): how close a transpose gets to
// a plain copy. The padded tile of lecture 001 with three changes, each for memory-level
// parallelism rather than for a new idea:
//  - 128-bit accesses: a thread loads a float4 from a row of `in` and stores a float4 to a row
//    of `out`, so a warp moves 512 contiguous bytes per instruction instead of 128;
//  - blocks of 32×2 threads, each thread moving 4 float4 (16 floats) of its 32×32 tile, so
//    many small blocks stay resident and every thread has 4 independent loads in flight;
//  - the tile is padded to 33 columns as in the padded step: a warp's 32 threads then touch 32
//    different banks both when it writes rows of the tile and when it reads its columns.
// The float4 path needs rows and columns of `in` and `out` that start on 16-byte boundaries
// (rows, cols multiples of 4 and aligned pointers) and a tile wholly inside the matrix; tiles at
// the edges, and any other shape, take a scalar path with bounds checks, so every size works.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"
#include "reference_only.cuh"

#include <cstdint>
#include <cuda_runtime.h>

constexpr int STRETCH_TILE = 32;
constexpr int STRETCH_THREADS = 64;  // 8 float4 per tile row, so 8 rows per pass, 4 passes

__global__ void transposeStretchKernel(const float* in, float* out, int rows, int cols,
                                       bool vector_ok) {
  __shared__ float tile[STRETCH_TILE][STRETCH_TILE + 1];
  const int t = threadIdx.x;
  const int tile_row0 = blockIdx.y * STRETCH_TILE;  // first row of `in` in this tile
  const int tile_col0 = blockIdx.x * STRETCH_TILE;  // first column of `in` in this tile
  const bool full = tile_row0 + STRETCH_TILE <= rows && tile_col0 + STRETCH_TILE <= cols;
  // Which float4 of the tile this thread moves in pass p: row (t / 8) + 8p, columns 4·(t % 8)...+3.
  const int quad = (t % 8) * 4;

  if (vector_ok && full) {
    float4 v[4];
    for (int p = 0; p < 4; ++p) {
      const int r = t / 8 + 8 * p;
      v[p] = *reinterpret_cast<const float4*>(in + static_cast<size_t>(tile_row0 + r) * cols +
                                              tile_col0 + quad);
    }
    for (int p = 0; p < 4; ++p) {
      const int r = t / 8 + 8 * p;
      tile[r][quad] = v[p].x;
      tile[r][quad + 1] = v[p].y;
      tile[r][quad + 2] = v[p].z;
      tile[r][quad + 3] = v[p].w;
    }
    __syncthreads();
    // Row c of this output tile is column c of the input tile.
    for (int p = 0; p < 4; ++p) {
      const int c = t / 8 + 8 * p;
      const float4 w = make_float4(tile[quad][c], tile[quad + 1][c], tile[quad + 2][c],
                                   tile[quad + 3][c]);
      *reinterpret_cast<float4*>(out + static_cast<size_t>(tile_col0 + c) * rows + tile_row0 +
                                 quad) = w;
    }
    return;
  }

  // Scalar path with bounds checks: thread t handles column t % 32 of rows t / 32, +2, +4, ...
  const int lane = t % STRETCH_TILE;
  for (int r = t / STRETCH_TILE; r < STRETCH_TILE; r += STRETCH_THREADS / STRETCH_TILE)
    if (tile_row0 + r < rows && tile_col0 + lane < cols)
      tile[r][lane] = in[static_cast<size_t>(tile_row0 + r) * cols + tile_col0 + lane];
  __syncthreads();
  for (int c = t / STRETCH_TILE; c < STRETCH_TILE; c += STRETCH_THREADS / STRETCH_TILE)
    if (tile_col0 + c < cols && tile_row0 + lane < rows)
      out[static_cast<size_t>(tile_col0 + c) * rows + tile_row0 + lane] = tile[lane][c];
}

void transpose_stretch(const float* in, float* out, int rows, int cols) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const bool vector_ok = aligned && rows % 4 == 0 && cols % 4 == 0;
  dim3 grid((cols + STRETCH_TILE - 1) / STRETCH_TILE, (rows + STRETCH_TILE - 1) / STRETCH_TILE, 1);
  transposeStretchKernel<<<grid, STRETCH_THREADS>>>(in, out, rows, cols, vector_ok);
}
