// Bug (index): the coalesced kernel's store keeps the load's stride (index_out = x + y * cols,
// then + i * cols): the transpose's rows are taken cols apart where they are rows apart (right
// only for square matrices).
#include "interface.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void copy(const float* idata, float* odata, int rows, int cols) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = x + y * cols;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    if (x < cols && y + i < rows) odata[index + i * cols] = idata[index + i * cols];
}

__global__ void mtran(const float* idata, float* odata, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) odata[x * rows + y] = idata[y * cols + x];
}

__global__ void mtran_coalesced(const float* idata, float* odata, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = x + y * cols;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    if (x < cols && y + i < rows) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * cols];

  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = x + y * cols;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    if (x < rows && y + i < cols) odata[index_out + i * cols] = tile[threadIdx.x][threadIdx.y + i];
}

__global__ void mtran_padded(const float* idata, float* odata, int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = x + y * cols;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    if (x < cols && y + i < rows) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * cols];

  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = x + y * rows;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    if (x < rows && y + i < cols) odata[index_out + i * rows] = tile[threadIdx.x][threadIdx.y + i];
}

void copy_tiled(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM, 1);
  dim3 threads(TILE_DIM, BLOCK_ROWS, 1);
  copy<<<grid, threads>>>(in, out, rows, cols);
}

void transpose_naive(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS, 1);
  dim3 threads(TILE_DIM, BLOCK_ROWS, 1);
  mtran<<<grid, threads>>>(in, out, rows, cols);
}

void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM, 1);
  dim3 threads(TILE_DIM, BLOCK_ROWS, 1);
  mtran_coalesced<<<grid, threads>>>(in, out, rows, cols);
}

void transpose_padded(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM, 1);
  dim3 threads(TILE_DIM, BLOCK_ROWS, 1);
  mtran_padded<<<grid, threads>>>(in, out, rows, cols);
}
