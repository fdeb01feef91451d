// Constructs of real CUDA code the CPU backend must run as written (issue 11); this file starts
// with a UTF-8 byte-order mark, as files saved by some Windows editors do.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cublas_v2.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "kernels.hpp"

namespace cg = cooperative_groups;

namespace {

// `static __shared__`, as NVIDIA's blog code writes it.
__global__ void static_shared_sum(const int* in, int* out) {
  static __shared__ int partial[64];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) s += partial[i];
    out[blockIdx.x] = s;
  }
}

// A warp-shuffle sum in a block that may have fewer than 32 threads (NVIDIA's reduction sample).
__global__ void shuffle_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0) *out = v;
}

// A warp-aggregated atomic under a divergent branch (NVIDIA's atomicAggInc): the lanes that took
// the branch elect a leader, which adds their count once and hands each lane its slot.
__device__ int aggregated_increment(int* counter) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int lane = threadIdx.x % 32;
  int base = 0;
  if (lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  return base + __popc(mask & ((1u << lane) - 1));
}

// Compacts the multiples of 3 among `in` into out[1...] (out[0]: how many), each thread that has
// one taking a slot through aggregated_increment.
__global__ void multiples_of_three(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0) out[1 + aggregated_increment(out)] = in[i];
}

// Thread 0 spins on a volatile __shared__ flag that the block's last thread sets after writing
// the value it waits for (legal since Volta: every thread is scheduled on its own), in one of
// the forms a spin takes: an empty body (`while (ready == 0);`), a block that counts its passes,
// a statement that does, `for (;;)` with a break, `do passes++; while`.
enum class Spin { empty, counting_block, counting_statement, endless_for, do_statement, if_body, for_on_flag };
template <Spin Form> __global__ void wait_for_last(const int* in, int* out) {
  __shared__ volatile int ready;
  __shared__ int value;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) {
    value = in[threadIdx.x];
    __threadfence_block();
    ready = 1;
  }
  if (threadIdx.x != 0) return;
  long long passes = 0;
  if (Form == Spin::empty) {
    while (ready == 0);
  } else if (Form == Spin::counting_block) {
    while (ready == 0) {
      ++passes;
    }
  } else if (Form == Spin::counting_statement) {
    while (ready == 0) ++passes;
  } else if (Form == Spin::endless_for) {
    for (;;) {
      if (ready != 0) break;
      ++passes;
    }
  } else if (Form == Spin::if_body) {
    while (ready == 0)
      if (passes >= 0) ++passes;
      else passes = 0;
  } else if (Form == Spin::for_on_flag) {
    for (long long i = 1; ready == 0; ++i) passes = i;
  } else {
    do passes++; while (ready == 0);
  }
  out[0] = value;
  out[1] = passes > 0 ? 1 : 0;
}

template <int Scale> __global__ void scaled_copy(const int* in, int* out) {
  out[threadIdx.x] = Scale * in[threadIdx.x];
}

// A kernel named `kernel` (SGEMM_CUDA's simplest_kernel.cu) that copies float4 from `offset`
// floats into `in` (a 16-byte move, as vectorised SGEMM kernels load their tiles).
__global__ void kernel(const float* in, float* out, int offset) {
  reinterpret_cast<float4*>(out)[threadIdx.x] = reinterpret_cast<const float4*>(in + offset)[threadIdx.x];
}

__global__ void write_byte(char* p, int index) { p[index] = 1; }

template <std::size_t BlockSize> __global__ void big_tiles(int* out) {
  __shared__ cg::block_tile_memory<BlockSize> scratch;
  auto block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<64>(block);
  out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>());
}

// __CUDA_ARCH__ as NVIDIA's samples read it (a warp path for sm_70 and later): in device code the
// architecture, 900 by default; in host code undefined, as in nvcc's host pass.
__device__ int arch_seen() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __syncwarp();
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

__global__ void arch_kernel(int* out) { out[threadIdx.x] = arch_seen(); }

template <class T, int Scale> void launch_scaled(const T* in, T* out, int n) {
  scaled_copy<Scale> << < 1, n >> > (in, out);
}

}  // namespace

namespace cpu_test {

std::vector<int> real_code(const std::string& which, int threads) {
  std::vector<int> host(threads), result(threads, -1);
  for (int i = 0; i < threads; ++i) host[i] = i + 1;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, threads * sizeof(int));
  cudaMalloc(&out, threads * sizeof(int));
  cudaMemcpy(in, host.data(), threads * sizeof(int), cudaMemcpyHostToDevice);
  // Host variables named like the built-ins, as SGEMM_CUDA's runner.cu declares them.
  dim3 gridDim(1), blockDim(threads);
  if (which == "static_shared") static_shared_sum<<<gridDim, blockDim>>>(in, out);
  if (which == "shuffle") shuffle_sum<<<gridDim, blockDim>>>(in, out);
  if (which == "spaced_launch") launch_scaled<int, 3>(in, out, threads);
  if (which == "cuda_arch") arch_kernel<<<gridDim, blockDim>>>(out);
  if (which == "spin_on_sibling") wait_for_last<Spin::empty><<<1, threads>>>(in, out);
  if (which == "spin_counting") wait_for_last<Spin::counting_block><<<1, threads>>>(in, out);
  if (which == "spin_counting_statement") wait_for_last<Spin::counting_statement><<<1, threads>>>(in, out);
  if (which == "spin_endless_for") wait_for_last<Spin::endless_for><<<1, threads>>>(in, out);
  if (which == "spin_do_statement") wait_for_last<Spin::do_statement><<<1, threads>>>(in, out);
  if (which == "spin_if_body") wait_for_last<Spin::if_body><<<1, threads>>>(in, out);
  if (which == "spin_for_on_flag") wait_for_last<Spin::for_on_flag><<<1, threads>>>(in, out);
  if (which == "aggregated_atomic") {
    cudaMemset(out, 0, threads * sizeof(int));
    multiples_of_three<<<(threads + 63) / 64, 64>>>(in, out, threads);
  }
#ifdef __CUDA_ARCH__
  if (which == "cuda_arch") return {};  // the host pass must not see it
#endif
  cudaMemcpy(result.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  return result;
}

std::string real_code_error(const std::string& which) {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  if (which == "aligned_float4") kernel<<<1, 32>>>(in, out, 4);
  if (which == "misaligned_float4") kernel<<<1, 32>>>(in, out, 1);
  if (which == "slack_write") {
    char* bytes = nullptr;
    cudaMalloc(&bytes, 4001);
    write_byte<<<1, 1>>>(bytes, 4003);  // in the allocation's padding to 4016 bytes
  }
  if (which == "template_name") scaled_copy<2><<<1, 2000>>>(nullptr, nullptr);
  if (which == "template_in_template") launch_scaled<int, 5>(nullptr, nullptr, 2000);
  if (which == "template_local_constant") {
    constexpr int kScale = 7;  // SGEMM_CUDA names its tile sizes so: K11_BM, K11_BN, ...
    scaled_copy<kScale><<<1, 32>>>(nullptr, reinterpret_cast<int*>(out));
  }
  if (which == "block_tile_memory") big_tiles<128><<<1, 128>>>(reinterpret_cast<int*>(out));
  if (which == "carveout") {
    cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    cudaProfilerStart();
    kernel<<<1, 32>>>(in, out, 0);
    cudaProfilerStop();
  }
  if (which == "async_and_mapped") {
    // Stream-ordered allocation and symbol copies, mapped host memory, and the macros nvcc defines.
#if !defined(__CUDACC__) || CUDART_VERSION < 9000
    return "the nvcc macros are missing";
#endif
    float* scratch = nullptr;
    cudaMallocAsync(&scratch, 256 * sizeof(float), 0);
    float* mapped = nullptr;
    cudaHostAlloc(&mapped, 256 * sizeof(float), cudaHostAllocMapped);
    float* device_view = nullptr;
    cudaHostGetDevicePointer(&device_view, mapped, 0);
    kernel<<<1, 32>>>(device_view, scratch, 0);
    cudaFreeAsync(scratch, 0);
    cudaFreeHost(mapped);
  }
  if (which == "cublas") {
    cublasHandle_t handle;
    if (cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS) cublasDestroy(handle);
  }
  cudaError_t error = cudaDeviceSynchronize();
  if (error == cudaSuccess) error = cudaGetLastError();
  std::string text = std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
  cudaDeviceReset();
  return text;
}

}  // namespace cpu_test
