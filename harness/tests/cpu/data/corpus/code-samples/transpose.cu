// Corpus item (transpose): series/cuda-cpp/transpose/transpose.cu (the "Efficient Matrix
// Transpose in CUDA C/C++" blog post), each kernel launched as its main does: a grid of
// nx / TILE_DIM by ny / TILE_DIM blocks of TILE_DIM x BLOCK_ROWS threads. The kernels take the
// matrix width from gridDim (square matrices, whole tiles). copy: copySharedMem, naive:
// transposeNaive, coalesced: transposeCoalesced, padded: transposeNoBankConflicts.
#define main transpose_blog_main
#include "series/cuda-cpp/transpose/transpose.cu"
#undef main

static void blog_launch(void (*kernel)(float*, const float*), const float* in, float* out, int rows, int cols) {
  dim3 dimGrid(cols / TILE_DIM, rows / TILE_DIM, 1);
  dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
  kernel<<<dimGrid, dimBlock>>>(out, in);
}
void copy_tiled(const float* in, float* out, int rows, int cols) { blog_launch(copySharedMem, in, out, rows, cols); }
void transpose_naive(const float* in, float* out, int rows, int cols) { blog_launch(transposeNaive, in, out, rows, cols); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) { blog_launch(transposeCoalesced, in, out, rows, cols); }
void transpose_padded(const float* in, float* out, int rows, int cols) { blog_launch(transposeNoBankConflicts, in, out, rows, cols); }
