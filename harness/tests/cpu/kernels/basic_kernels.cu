// Test kernels: element-wise, tiled matrix multiply, atomics, dynamic shared memory, limits.
#include <cuda_runtime.h>

#include <vector>

#include "kernels.hpp"

namespace {

constexpr int kTile = 16;

__global__ void vecadd_kernel(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void matmul_kernel(const float* A, const float* B, float* C, int n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (n + kTile - 1) / kTile; ++t) {
    int ac = t * kTile + threadIdx.x, br = t * kTile + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (br < n && col < n) ? B[br * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc = __fmaf_rn(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}

__global__ void atomics_kernel(const int* in, int n, int* hist, int bins, int* extremes, float* sum, int* last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&hist[in[i] % bins], 1);
  atomicMax(&extremes[0], in[i]);
  atomicMin(&extremes[1], in[i]);
  atomicSub(&extremes[2], 1);
  // A float sum through atomicCAS, the classic pattern for types without a native atomic.
  int* bits = reinterpret_cast<int*>(sum);
  int old = *bits, seen;
  do {
    seen = old;
    old = atomicCAS(bits, seen, __float_as_int(__int_as_float(seen) + 1.0f));
  } while (old != seen);
  atomicExch(last, 7);
}

__global__ void reverse_kernel(const float* in, float* out) {
  extern __shared__ float buffer[];
  unsigned t = threadIdx.x;
  buffer[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buffer[blockDim.x - 1 - t];
}

__global__ void empty_kernel() {}

template <class T> T* to_device(const std::vector<T>& host) {
  T* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(T));
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T> std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

std::string last_error() {
  cudaError_t error = cudaDeviceSynchronize();
  if (error == cudaSuccess) error = cudaGetLastError();
  return cudaGetErrorString(error);
}

}  // namespace

namespace cpu_test {

Launched vecadd(const std::vector<float>& a, const std::vector<float>& b, int block) {
  int n = static_cast<int>(a.size());
  float *da = to_device(a), *db = to_device(b), *dc = nullptr;
  cudaMalloc(&dc, n * sizeof(float));
  vecadd_kernel<<<(n + block - 1) / block, block>>>(da, db, dc, n);
  Launched r{to_host(dc, n), last_error()};
  cudaFree(da), cudaFree(db), cudaFree(dc);
  return r;
}

Launched matmul_tiled(const std::vector<float>& a, const std::vector<float>& b, int n) {
  float *da = to_device(a), *db = to_device(b), *dc = nullptr;
  cudaMalloc(&dc, n * n * sizeof(float));
  dim3 block(kTile, kTile), grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
  matmul_kernel<<<grid, block>>>(da, db, dc, n);
  Launched r{to_host(dc, n * n), last_error()};
  cudaFree(da), cudaFree(db), cudaFree(dc);
  return r;
}

Launched atomics(const std::vector<int>& in, int bins) {
  int n = static_cast<int>(in.size());
  int *din = to_device(in), *hist = nullptr, *extremes = nullptr, *last = nullptr;
  float* sum = nullptr;
  cudaMalloc(&hist, bins * sizeof(int));
  cudaMemset(hist, 0, bins * sizeof(int));
  extremes = to_device(std::vector<int>{-1000000, 1000000, 0});
  cudaMalloc(&sum, sizeof(float));
  cudaMemset(sum, 0, sizeof(float));
  cudaMalloc(&last, sizeof(int));
  atomics_kernel<<<(n + 127) / 128, 128>>>(din, n, hist, bins, extremes, sum, last);
  Launched r{{}, last_error()};
  for (int v : to_host(hist, bins)) r.values.push_back(static_cast<float>(v));
  for (int v : to_host(extremes, 3)) r.values.push_back(static_cast<float>(v));
  r.values.push_back(to_host(sum, 1)[0]);
  r.values.push_back(static_cast<float>(to_host(last, 1)[0]));
  cudaFree(din), cudaFree(hist), cudaFree(extremes), cudaFree(sum), cudaFree(last);
  return r;
}

Launched reverse_block(const std::vector<float>& in) {
  const int block = 128, n = static_cast<int>(in.size());
  float *din = to_device(in), *dout = nullptr;
  cudaMalloc(&dout, n * sizeof(float));
  reverse_kernel<<<n / block, block, block * sizeof(float)>>>(din, dout);
  Launched r{to_host(dout, n), last_error()};
  cudaFree(din), cudaFree(dout);
  return r;
}

std::string launch_with(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        std::size_t shared_bytes) {
  empty_kernel<<<dim3(gx, gy, gz), dim3(bx, by, bz), shared_bytes>>>();
  return cudaGetErrorString(cudaGetLastError());
}

std::vector<std::string> device_properties() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  return {p.name, std::to_string(p.maxThreadsPerBlock), std::to_string(p.sharedMemPerBlock),
          std::to_string(p.maxGridSize[1])};
}

unsigned fresh_malloc_word() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 3 * sizeof(unsigned));
  unsigned word = 0;
  cudaMemcpy(&word, d + 2, sizeof word, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return word;
}

std::pair<std::string, int> memcpy_error_text(bool host_as_device) {
  float host[4] = {};
  float* d = nullptr;
  cudaMalloc(&d, 4 * sizeof(float));
  int line = 0;
  if (host_as_device) {
    line = __LINE__ + 1;
    cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice);
  } else {
    line = __LINE__ + 1;
    cudaMemcpy(d, host, 5 * sizeof(float), cudaMemcpyHostToDevice);
  }
  std::string text = cudaGetErrorString(cudaGetLastError());
  cudaFree(d);
  return {text, line};
}

std::vector<std::string> memory_api_errors() {
  float host[4] = {};
  float* d = nullptr;
  cudaMalloc(&d, 4 * sizeof(float));
  std::vector<std::string> errors;
  auto note = [&](cudaError_t e) { errors.push_back(cudaGetErrorName(e)); cudaGetLastError(); };
  note(cudaMemcpy(d, host, 5 * sizeof(float), cudaMemcpyHostToDevice));  // past the allocation
  note(cudaMemcpy(host, host, 4, cudaMemcpyHostToDevice));               // host pointer as device
  note(cudaMemset(d + 1, 0, 4 * sizeof(float)));                         // past the allocation
  note(cudaMemcpy(host, d, 4 * sizeof(float), cudaMemcpyDeviceToHost));  // fine
  note(cudaFree(d));
  note(cudaFree(d));                                                     // double free
  return errors;
}

}  // namespace cpu_test
