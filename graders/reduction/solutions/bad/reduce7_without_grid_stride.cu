// Correct but slow: reduce7 handed in without its grid-stride loop (reduce6 relaunched), so each
// thread adds two elements where Harris's kernel 7 lets a few blocks' threads add many each: about
// 128 times the reference's threads, and every thread's index arithmetic, shared-memory tree and
// partial sum paid as many times over. Every case passes; the reduce7 step loses performance points,
// and the performance diagnosis must name the work per thread (issue 51), not divergence. The other
// steps are the known-good lecture_style.cu.
#include "interface.cuh"

#define BLOCK 128

__global__ void reduce1(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce2(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce3(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce4(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = ((i < n) ? g_idata[i] : 0) + ((i + blockDim.x < n) ? g_idata[i + blockDim.x] : 0);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// The printed last warp, each step split into read, __syncwarp(), write, __syncwarp().
__device__ void warpReduce(volatile int* sdata, unsigned int tid) {
  int v = sdata[tid];
  v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 8]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 4]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 2]; __syncwarp(); sdata[tid] = v; __syncwarp();
  v += sdata[tid + 1]; __syncwarp(); sdata[tid] = v;
}

__global__ void reduce5(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = ((i < n) ? g_idata[i] : 0) + ((i + blockDim.x < n) ? g_idata[i + blockDim.x] : 0);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <unsigned int blockSize>
__global__ void reduce6(const int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  sdata[tid] = ((i < n) ? g_idata[i] : 0) + ((i + blockSize < n) ? g_idata[i + blockSize] : 0);
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void widen(const int* sum, long long* out) { *out = *sum; }

typedef void (*Kernel)(const int*, int*, unsigned int);

// Relaunches `kernel` (each block reducing perBlock elements) until one sum is left.
void relaunch(Kernel kernel, unsigned int perBlock, const int* in, long long* out, int n) {
  unsigned int count = n;
  unsigned int blocks = (count + perBlock - 1) / perBlock;
  int* d_a;
  int* d_b;
  cudaMalloc(&d_a, blocks * sizeof(int));
  cudaMalloc(&d_b, blocks * sizeof(int));
  kernel<<<blocks, BLOCK, BLOCK * sizeof(int)>>>(in, d_a, count);
  count = blocks;
  while (count > 1) {
    blocks = (count + perBlock - 1) / perBlock;
    kernel<<<blocks, BLOCK, BLOCK * sizeof(int)>>>(d_a, d_b, count);
    int* t = d_a; d_a = d_b; d_b = t;
    count = blocks;
  }
  widen<<<1, 1>>>(d_a, out);
  cudaFree(d_a);
  cudaFree(d_b);
}

void reduce_1(const int* in, long long* out, int n) { relaunch(reduce1, BLOCK, in, out, n); }
void reduce_2(const int* in, long long* out, int n) { relaunch(reduce2, BLOCK, in, out, n); }
void reduce_3(const int* in, long long* out, int n) { relaunch(reduce3, BLOCK, in, out, n); }
void reduce_4(const int* in, long long* out, int n) { relaunch(reduce4, 2 * BLOCK, in, out, n); }
void reduce_5(const int* in, long long* out, int n) { relaunch(reduce5, 2 * BLOCK, in, out, n); }
void reduce_6(const int* in, long long* out, int n) { relaunch(reduce6<BLOCK>, 2 * BLOCK, in, out, n); }

void reduce_7(const int* in, long long* out, int n) {
  // reduce6 again: no grid-stride loop, so a block per 256 elements and two elements per thread.
  relaunch(reduce6<BLOCK>, 2 * BLOCK, in, out, n);
}
