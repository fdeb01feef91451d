// Sample inputs and digests on the host: for steps whose arrays live in host memory, and for the
// CPU backend's runner (whose "device" memory is host memory; it also fills words here).
// sample_kernels.cu and word_fill.cu do the same on a GPU for the CUDA runner.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sample_inputs.hpp"
#ifdef CUGRADE_CPU_RUNNER
#include "word_fill.hpp"
#endif

namespace cugrade::runner {
namespace {

/// Rows and the length of the last dimension of `layout` (a scalar is one row of one).
void shape(const Array& layout, std::int64_t& rows, std::int64_t& cols) {
  cols = layout.dims.empty() ? 1 : layout.dims.back();
  rows = cols == 0 ? 0 : layout.size() / cols;
}

template <class T>
void rotate(const T* base, T* dest, std::int64_t rows, std::int64_t cols, std::int64_t shift, bool negate,
            std::uint64_t signs) {
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    const std::int64_t to = sample_place(i, cols, shift);
    dest[to] = negate != sign_flipped(signs, to) ? static_cast<T>(-base[i]) : base[i];
  }
}

/// rotate on arrays of T, as `variant` says.
template <class T>
void rotate_as(const void* base, void* dest, std::int64_t rows, std::int64_t cols, std::int64_t shift,
               SampleVariant variant) {
  rotate(static_cast<const T*>(base), static_cast<T*>(dest), rows, cols, shift, variant.negate, variant.signs);
}

template <class T>
void digest_of(const T* data, std::int64_t n, std::uint64_t key, double atol, double rtol, std::int64_t first,
               Digest& digest) {
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t h = digest_hash(key, static_cast<std::uint64_t>(first + i));
    const double w = 1.0 + static_cast<double>(h >> 54) / 1024.0;
    const double x = static_cast<double>(data[i]);
    const int bucket = static_cast<int>(h % digest_buckets);
    digest.sums[bucket] += w * digest_term(x);
    digest.bounds[bucket] += w * digest_slope * (atol + rtol * std::fabs(x));
    digest.exact += exact_term(key, static_cast<std::uint64_t>(first + i), x);
  }
  if (n > 0)
    for (int j = 0; j < digest_spots; ++j) digest.spots.push_back(static_cast<double>(data[spot_index(key, first, j, n)]));
}

}  // namespace

void host_sample_input(const void* base, void* dest, const Array& layout, SampleVariant variant) {
  std::int64_t rows = 0, cols = 0;
  shape(layout, rows, cols);
  if (cols == 0) return;
  const std::int64_t shift = ((variant.shift % cols) + cols) % cols;
  switch (layout.type) {
    case DType::f32: rotate_as<float>(base, dest, rows, cols, shift, variant); break;
    case DType::f64: rotate_as<double>(base, dest, rows, cols, shift, variant); break;
    case DType::i32: rotate_as<std::int32_t>(base, dest, rows, cols, shift, variant); break;
    case DType::i64: rotate_as<std::int64_t>(base, dest, rows, cols, shift, variant); break;
    // Unsigned values have no negation that keeps them valid: rotation only, no sign flipped.
    case DType::u32: rotate_as<std::uint32_t>(base, dest, rows, cols, shift, SampleVariant{}); break;
  }
}

void host_move_sample_bodies(const float* reach, float* dest, const Array& layout, std::int64_t shift,
                             std::uint64_t key, int axis) {
  std::int64_t rows = 0, cols = 0;
  shape(layout, rows, cols);
  if (cols == 0) return;
  shift = ((shift % cols) + cols) % cols;
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    const std::int64_t to = sample_place(i, cols, shift);
    dest[to] = dest[to] + body_move(key, to, axis, reach[i]);
  }
}

void host_add_digest(const void* data, const Array& layout, std::uint64_t key, double atol, double rtol,
                     std::int64_t first, Digest& digest) {
  const std::int64_t n = layout.size();
  switch (layout.type) {
    case DType::f32: digest_of(static_cast<const float*>(data), n, key, atol, rtol, first, digest); break;
    case DType::f64: digest_of(static_cast<const double*>(data), n, key, atol, rtol, first, digest); break;
    case DType::i32: digest_of(static_cast<const std::int32_t*>(data), n, key, atol, rtol, first, digest); break;
    case DType::i64: digest_of(static_cast<const std::int64_t*>(data), n, key, atol, rtol, first, digest); break;
    case DType::u32: digest_of(static_cast<const std::uint32_t*>(data), n, key, atol, rtol, first, digest); break;
  }
}

#ifdef CUGRADE_CPU_RUNNER
// The CPU backend's "device" memory is host memory: the host code serves both.
void write_sample_input(Memory, const void* base, void* dest, const Array& layout, SampleVariant variant) {
  host_sample_input(base, dest, layout, variant);
}

void move_sample_bodies(Memory, const float* reach, float* dest, const Array& layout, std::int64_t shift,
                        std::uint64_t key, int axis) {
  host_move_sample_bodies(reach, dest, layout, shift, key, axis);
}

void add_digest(Memory, const void* data, const Array& layout, std::uint64_t key, double atol, double rtol,
                std::int64_t first, Digest& digest) {
  host_add_digest(data, layout, key, atol, rtol, first, digest);
}

cudaError_t fill_words(void* dest, std::size_t count, std::uint32_t word) {
  std::fill_n(static_cast<std::uint32_t*>(dest), count, word);
  return cudaSuccess;
}
#endif

}  // namespace cugrade::runner
