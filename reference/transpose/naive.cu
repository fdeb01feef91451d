// Reference for step "naive" of assignment transpose: the lecture's mtran (lecture 001), one
// thread per element, generalised from n×n to rows×cols with bounds checks. Reads of `in` are
// coalesced along a row; writes to `out` jump by `rows` floats from thread to thread, which is
// what the later steps fix.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// Blocks of 32×8 threads, the shape of the tiled steps, so only the access pattern differs.
constexpr int NAIVE_BLOCK_X = 32;
constexpr int NAIVE_BLOCK_Y = 8;

__global__ void mtran(const float* idata, float* odata, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of in, row of out
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of in, column of out
  // The lecture's odata[x*n + y] = idata[y*n + x], with out cols×rows and in rows×cols; the
  // grid is rounded up to whole blocks, so threads past the edge do nothing.
  if (x < cols && y < rows) odata[x * rows + y] = idata[y * cols + x];
}

void transpose_naive(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + NAIVE_BLOCK_X - 1) / NAIVE_BLOCK_X, (rows + NAIVE_BLOCK_Y - 1) / NAIVE_BLOCK_Y, 1);
  dim3 threads(NAIVE_BLOCK_X, NAIVE_BLOCK_Y, 1);
  mtran<<<grid, threads>>>(in, out, rows, cols);
}
