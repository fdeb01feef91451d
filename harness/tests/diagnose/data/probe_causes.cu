// Three slow steps the diagnosis once misnamed, each beside the reference it is compared with, at
// the timed sizes: reduce3 written as Harris's kernel 1 (tid % (2*s), int, 128 threads) against
// the reference's reduce3 (sequential addressing, long long, 256); reduce7 without its grid-stride
// loop (two elements per thread) against the reference's (at most 1024 blocks); matmul's coarse
// step with one output per thread (a 32×32 tiled kernel) against the reference's four (32×8
// threads). Each launch inside an NVTX range named cugrade_entry, as the runner marks a call.
#include <cstdio>
#include <nvtx3/nvToolsExt.h>

__global__ void fill_int(int* a, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = int(i % 2001) - 1000;
}
__global__ void fill_float(float* a, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = 1.0f / (1 + i % 7);
}

// The student's reduce3: Harris's kernel 1.
__global__ void reduce3_modulo(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata_i[];
  unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata_i[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata_i[tid] += sdata_i[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata_i[0];
}
// The reference's reduce3: sequential addressing.
__global__ void reduce3_sequential(const int* g_idata, long long* g_odata, unsigned int n) {
  extern __shared__ long long sdata[];
  unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? static_cast<long long>(g_idata[i]) : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce7's tree after the loads (reduce6's, unrolled for 256 threads).
__device__ void tree256(long long* sdata, unsigned int tid, long long* g_out) {
  __syncthreads();
  if (tid < 128) sdata[tid] += sdata[tid + 128];
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    long long v = sdata[tid] + sdata[tid + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (tid == 0) atomicAdd(reinterpret_cast<unsigned long long*>(g_out), static_cast<unsigned long long>(v));
  }
}
// The reference's reduce7: a grid-stride loop, many elements per thread.
__global__ void reduce7_grid_stride(const int* g_idata, long long* g_out, unsigned int n) {
  extern __shared__ long long sdata[];
  unsigned int tid = threadIdx.x;
  size_t i = blockIdx.x * 512 + tid, grid = 512 * size_t(gridDim.x);
  long long sum = 0;
  while (i < n) {
    sum += g_idata[i];
    if (i + 256 < n) sum += g_idata[i + 256];
    i += grid;
  }
  sdata[tid] = sum;
  tree256(sdata, tid, g_out);
}
// The student's: two elements per thread, a block per 512 elements.
__global__ void reduce7_two_per_thread(const int* g_idata, long long* g_out, unsigned int n) {
  extern __shared__ long long sdata[];
  unsigned int tid = threadIdx.x;
  size_t i = blockIdx.x * 512 + tid;
  long long sum = (i < n) ? g_idata[i] : 0;
  if (i + 256 < n) sum += g_idata[i + 256];
  sdata[tid] = sum;
  tree256(sdata, tid, g_out);
}

// The reference's coarse step: 32×8 threads, four outputs each (rows 8 apart).
__global__ void matmul_coarse_four(const float* a, const float* b, float* c, int n) {
  __shared__ float as[32][32], bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y, row = 32 * blockIdx.y + ty, col = 32 * blockIdx.x + tx;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (int k0 = 0; k0 < n; k0 += 32) {
    for (int r = 0; r < 4; ++r) {
      as[ty + 8 * r][tx] = a[(row + 8 * r) * n + k0 + tx];
      bs[ty + 8 * r][tx] = b[(k0 + ty + 8 * r) * n + col];
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
      float bk = bs[k][tx];
      s0 += as[ty][k] * bk; s1 += as[ty + 8][k] * bk; s2 += as[ty + 16][k] * bk; s3 += as[ty + 24][k] * bk;
    }
    __syncthreads();
  }
  c[row * n + col] = s0; c[(row + 8) * n + col] = s1; c[(row + 16) * n + col] = s2; c[(row + 24) * n + col] = s3;
}
// The student's: the tiled kernel, one output per thread.
__global__ void matmul_coarse_one(const float* a, const float* b, float* c, int n) {
  __shared__ float as[32][32], bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y, row = 32 * blockIdx.y + ty, col = 32 * blockIdx.x + tx;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += 32) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main() {
  const unsigned int n = 1u << 26;
  int* in; int* out_i; long long* out_ll;
  cudaMalloc(&in, n * sizeof(int)); cudaMalloc(&out_i, (n / 128) * sizeof(int)); cudaMalloc(&out_ll, (n / 256) * sizeof(long long));
  fill_int<<<n / 256, 256>>>(in, n);
  nvtxRangePushA("cugrade_entry"); reduce3_modulo<<<n / 128, 128, 128 * sizeof(int)>>>(in, out_i, n); nvtxRangePop();
  nvtxRangePushA("cugrade_entry"); reduce3_sequential<<<n / 256, 256, 256 * sizeof(long long)>>>(in, out_ll, n); nvtxRangePop();
  cudaMemset(out_ll, 0, sizeof(long long));
  nvtxRangePushA("cugrade_entry"); reduce7_grid_stride<<<1024, 256, 256 * sizeof(long long)>>>(in, out_ll, n); nvtxRangePop();
  cudaMemset(out_ll, 0, sizeof(long long));
  nvtxRangePushA("cugrade_entry"); reduce7_two_per_thread<<<n / 512, 256, 256 * sizeof(long long)>>>(in, out_ll, n); nvtxRangePop();
  const int m = 2048;
  float *a, *b, *c;
  cudaMalloc(&a, m * m * 4); cudaMalloc(&b, m * m * 4); cudaMalloc(&c, m * m * 4);
  fill_float<<<m * m / 256, 256>>>(a, size_t(m) * m); fill_float<<<m * m / 256, 256>>>(b, size_t(m) * m);
  nvtxRangePushA("cugrade_entry"); matmul_coarse_four<<<dim3(m / 32, m / 32), dim3(32, 8)>>>(a, b, c, m); nvtxRangePop();
  nvtxRangePushA("cugrade_entry"); matmul_coarse_one<<<dim3(m / 32, m / 32), dim3(32, 32)>>>(a, b, c, m); nvtxRangePop();
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
