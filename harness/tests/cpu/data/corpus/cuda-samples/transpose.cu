// Corpus item (transpose): Samples/6_Performance/transpose/transpose.cu, each kernel launched
// as the sample's main does: a grid of size_x / TILE_DIM by size_y / TILE_DIM blocks of
// TILE_DIM x BLOCK_ROWS threads (whole tiles only; the kernels have no bounds checks).
// copy: copySharedMem, naive: transposeNaive, coalesced: transposeCoalesced, padded:
// transposeNoBankConflicts.
#include "common_headers.cuh"
#define main transpose_sample_main
#include "Samples/6_Performance/transpose/transpose.cu"
#undef main

static void sample_launch(void (*kernel)(float*, float*, int, int), const float* in, float* out, int rows, int cols) {
  dim3 grid(cols / TILE_DIM, rows / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  kernel<<<grid, threads>>>(out, const_cast<float*>(in), cols, rows);
}
void copy_tiled(const float* in, float* out, int rows, int cols) { sample_launch(copySharedMem, in, out, rows, cols); }
void transpose_naive(const float* in, float* out, int rows, int cols) { sample_launch(transposeNaive, in, out, rows, cols); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) { sample_launch(transposeCoalesced, in, out, rows, cols); }
void transpose_padded(const float* in, float* out, int rows, int cols) { sample_launch(transposeNoBankConflicts, in, out, rows, cols); }
