#include <cstdio>
#include <nvtx3/nvToolsExt.h>
#define N 2048
#define T 32
__global__ void fill(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = 1.0f / (1 + i % 7); }
// transpose, naive: reads coalesced, writes strided
__global__ void transpose_naive(const float* in, float* out, int n) {
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x < n && y < n) out[x * n + y] = in[y * n + x];
}
// tiled, unpadded: bank conflicts on the column read
__global__ void transpose_smem(const float* in, float* out, int n) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void transpose_padded(const float* in, float* out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void reduce0(const int* in, int* out) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) { if (t % (2 * k) == 0) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void reduce2(const int* in, int* out) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  float *a, *b; cudaMalloc(&a, N * N * 4); cudaMalloc(&b, N * N * 4);
  fill<<<N * N / 256, 256>>>(a, N * N);
  dim3 block(T, T), grid(N / T, N / T);
  nvtxRangePushA("cugrade_entry"); transpose_naive<<<grid, block>>>(a, b, N); nvtxRangePop();
  nvtxRangePushA("cugrade_entry"); transpose_smem<<<grid, block>>>(a, b, N); nvtxRangePop();
  nvtxRangePushA("cugrade_entry"); transpose_padded<<<grid, block>>>(a, b, N); nvtxRangePop();
  int *ri, *ro; cudaMalloc(&ri, (1 << 24) * 4); cudaMalloc(&ro, (1 << 16) * 4); cudaMemset(ri, 0, (1 << 24) * 4);
  nvtxRangePushA("cugrade_entry"); reduce0<<<(1 << 24) / 256, 256, 1024>>>(ri, ro); nvtxRangePop();
  nvtxRangePushA("cugrade_entry"); reduce2<<<(1 << 24) / 256, 256, 1024>>>(ri, ro); nvtxRangePop();
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
