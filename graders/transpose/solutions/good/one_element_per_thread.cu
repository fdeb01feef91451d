// Known good, another shape: 16×16 blocks for the copy and the naive step, and tiled kernels
// with one element per thread (32×32 threads, a 2-D grid-stride loop over tiles so a small grid
// covers any size) and both barriers reached by every thread.
#include "interface.cuh"

constexpr int T = 32;

__global__ void copy16(const float* in, float* out, int rows, int cols) {
  const int c = blockIdx.x * 16 + threadIdx.x, r = blockIdx.y * 16 + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c];
}

__global__ void naive16(const float* in, float* out, int rows, int cols) {
  const int c = blockIdx.x * 16 + threadIdx.x, r = blockIdx.y * 16 + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

template <int PAD>
__global__ void tiles(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[T][T + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int by = blockIdx.y; by * T < rows; by += gridDim.y)
    for (int bx = blockIdx.x; bx * T < cols; bx += gridDim.x) {
      const int r = by * T + ty, c = bx * T + tx;
      if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
      __syncthreads();
      const int orow = bx * T + ty, ocol = by * T + tx;  // out is cols×rows
      if (orow < cols && ocol < rows) out[orow * rows + ocol] = tile[tx][ty];
      __syncthreads();  // the next tile must not overwrite this one while others still read it
    }
}

dim3 tile_grid(int rows, int cols) {
  const int gx = (cols + T - 1) / T, gy = (rows + T - 1) / T;
  return dim3(gx < 64 ? gx : 64, gy < 64 ? gy : 64);
}

void copy_tiled(const float* in, float* out, int rows, int cols) {
  copy16<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(in, out, rows, cols);
}

void transpose_naive(const float* in, float* out, int rows, int cols) {
  naive16<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(in, out, rows, cols);
}

void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  tiles<0><<<tile_grid(rows, cols), dim3(T, T)>>>(in, out, rows, cols);
}

void transpose_padded(const float* in, float* out, int rows, int cols) {
  tiles<1><<<tile_grid(rows, cols), dim3(T, T)>>>(in, out, rows, cols);
}
