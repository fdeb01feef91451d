// Sample inputs and digests on the GPU (sample_inputs.hpp), for the CUDA runner: a rotation is
// one pass over the base copy, a digest one pass over the output, so neither costs the timing
// loop more than a memory copy. Host memory goes to sample_host.cpp.
#include <cuda_runtime.h>

#include <stdexcept>

#include "sample_inputs.hpp"

namespace cugrade::runner {
namespace {

template <class T>
__global__ void rotate_kernel(const T* base, T* dest, std::int64_t rows, std::int64_t cols, std::int64_t shift,
                              bool negate, std::uint64_t signs) {
  const std::int64_t n = rows * cols;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t to = sample_place(i, cols, shift);
    const T v = base[i];
    dest[to] = negate != sign_flipped(signs, to) ? static_cast<T>(-v) : v;
  }
}

__global__ void move_bodies_kernel(const float* reach, float* dest, std::int64_t rows, std::int64_t cols,
                                   std::int64_t shift, std::uint64_t key, int axis) {
  const std::int64_t n = rows * cols;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t to = sample_place(i, cols, shift);
    dest[to] = __fadd_rn(dest[to], body_move(key, to, axis, reach[i]));
  }
}

/// Where the digest kernel adds up: the buckets' sums and bounds, then the exact part.
struct DigestSlots {
  double sums[digest_buckets];
  double bounds[digest_buckets];
  unsigned long long exact;
  double spots[digest_spots];
};

/// Each block sums into shared buckets and its own exact part, then adds them to the global ones.
template <class T>
__global__ void digest_kernel(const T* data, std::int64_t n, std::uint64_t key, double atol, double rtol,
                              std::int64_t first, DigestSlots* out) {
  __shared__ double sums[digest_buckets], bounds[digest_buckets];
  __shared__ unsigned long long exact;
  for (int b = threadIdx.x; b < digest_buckets; b += blockDim.x) sums[b] = bounds[b] = 0.0;
  if (threadIdx.x == 0) exact = 0;
  if (blockIdx.x == 0)  // the spots: elements as they are, written once
    for (int j = threadIdx.x; j < digest_spots; j += blockDim.x)
      out->spots[j] = static_cast<double>(data[spot_index(key, first, j, n)]);
  __syncthreads();
  unsigned long long mine = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t h = digest_hash(key, static_cast<std::uint64_t>(first + i));
    const double w = 1.0 + static_cast<double>(h >> 54) / 1024.0;
    const double x = static_cast<double>(data[i]);
    const int bucket = static_cast<int>(h % digest_buckets);
    atomicAdd(&sums[bucket], w * digest_term(x));
    atomicAdd(&bounds[bucket], w * digest_slope * (atol + rtol * fabs(x)));
    mine += exact_term(key, static_cast<std::uint64_t>(first + i), x);
  }
  atomicAdd(&exact, mine);
  __syncthreads();
  for (int b = threadIdx.x; b < digest_buckets; b += blockDim.x) {
    atomicAdd(&out->sums[b], sums[b]);
    atomicAdd(&out->bounds[b], bounds[b]);
  }
  if (threadIdx.x == 0) atomicAdd(&out->exact, exact);
}

int grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + 255) / 256;
  return static_cast<int>(blocks < 1024 ? (blocks < 1 ? 1 : blocks) : 1024);
}

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(error));
}

template <class T>
void rotate(const void* base, void* dest, std::int64_t rows, std::int64_t cols, std::int64_t shift, bool negate,
            std::uint64_t signs) {
  rotate_kernel<T><<<grid_for(rows * cols), 256>>>(static_cast<const T*>(base), static_cast<T*>(dest), rows, cols,
                                                   shift, negate, signs);
}

template <class T>
void digest(const void* data, std::int64_t n, std::uint64_t key, double atol, double rtol, std::int64_t first,
            DigestSlots* out) {
  digest_kernel<T><<<grid_for(n), 256>>>(static_cast<const T*>(data), n, key, atol, rtol, first, out);
}

}  // namespace

void write_sample_input(Memory memory, const void* base, void* dest, const Array& layout, SampleVariant variant) {
  if (memory == Memory::host) return host_sample_input(base, dest, layout, variant);
  const std::int64_t cols = layout.dims.empty() ? 1 : layout.dims.back();
  if (cols == 0 || layout.size() == 0) return;
  const std::int64_t rows = layout.size() / cols, shift = ((variant.shift % cols) + cols) % cols;
  switch (layout.type) {
    case DType::f32: rotate<float>(base, dest, rows, cols, shift, variant.negate, variant.signs); break;
    case DType::f64: rotate<double>(base, dest, rows, cols, shift, variant.negate, variant.signs); break;
    case DType::i32: rotate<std::int32_t>(base, dest, rows, cols, shift, variant.negate, variant.signs); break;
    case DType::i64: rotate<long long>(base, dest, rows, cols, shift, variant.negate, variant.signs); break;
    case DType::u32: rotate<std::uint32_t>(base, dest, rows, cols, shift, false, 0); break;
  }
  check(cudaGetLastError(), "launching the sample-input rotation");
}

void move_sample_bodies(Memory memory, const float* reach, float* dest, const Array& layout, std::int64_t shift,
                        std::uint64_t key, int axis) {
  if (memory == Memory::host) return host_move_sample_bodies(reach, dest, layout, shift, key, axis);
  const std::int64_t cols = layout.dims.empty() ? 1 : layout.dims.back();
  if (cols == 0 || layout.size() == 0) return;
  const std::int64_t rows = layout.size() / cols;
  move_bodies_kernel<<<grid_for(rows * cols), 256>>>(reach, dest, rows, cols, ((shift % cols) + cols) % cols, key,
                                                     axis);
  check(cudaGetLastError(), "launching the sample bodies' moves");
}

void add_digest(Memory memory, const void* data, const Array& layout, std::uint64_t key, double atol, double rtol,
                std::int64_t first, Digest& result) {
  if (memory == Memory::host) return host_add_digest(data, layout, key, atol, rtol, first, result);
  const std::int64_t n = layout.size();
  if (n == 0) return;
  DigestSlots* out = nullptr;
  check(cudaMalloc(&out, sizeof(DigestSlots)), "cudaMalloc (digest)");
  check(cudaMemset(out, 0, sizeof(DigestSlots)), "cudaMemset (digest)");
  switch (layout.type) {
    case DType::f32: digest<float>(data, n, key, atol, rtol, first, out); break;
    case DType::f64: digest<double>(data, n, key, atol, rtol, first, out); break;
    case DType::i32: digest<std::int32_t>(data, n, key, atol, rtol, first, out); break;
    case DType::i64: digest<long long>(data, n, key, atol, rtol, first, out); break;
    case DType::u32: digest<std::uint32_t>(data, n, key, atol, rtol, first, out); break;
  }
  DigestSlots host{};
  const cudaError_t copied = cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  check(copied, "the digest's cudaMemcpy");
  for (int b = 0; b < digest_buckets; ++b) {
    result.sums[b] += host.sums[b];
    result.bounds[b] += host.bounds[b];
  }
  result.exact += host.exact;
  result.spots.insert(result.spots.end(), host.spots, host.spots + digest_spots);
}

}  // namespace cugrade::runner
