#pragma once
// What makes every timed sample honest (design.md §4): each sample runs on inputs it has never
// seen, and its outputs are summarised by a digest whose key is chosen after the call returned,
// so neither a cache of earlier results nor work left for later can pass.
//   - sample inputs: the task's base inputs, every row rotated along its last dimension by a shift
//     and, at random, negated (exact for every dtype the graders use); both are valid inputs
//     for every assignment (a matrix's columns permuted, bodies renumbered and mirrored through the
//     origin, a vector rotated). Those alone leave a sum only two values and a transposed or added
//     vector a rotated copy of the first: so the inputs a grader names sign-free
//     (Grader::sign_free_inputs) also have each element's sign flipped by a keyed coin, a pattern
//     new in every sample, and no output of an earlier call, rotated or negated, is this one's;
//     and the bodies a grader names movable (Grader::movable_bodies, N-body) each move by a keyed
//     amount within their reach (body_reach.hpp), so that every distance, and every force, is new;
//   - digest: elements spread over `digest_buckets` buckets by a keyed hash; per bucket the sum
//     of w_i·g(x_i) (w_i in [1, 2), keyed; g(x) = |x| + x/2) and, for the reference, the sum of
//     w_i·1.5·(atol + rtol·|x_i|). g changes by at most 1.5·|Δx|, so outputs within tolerance
//     give bucket sums within that bound of the reference's; a stale, skipped, negated or
//     poisoned output does not. g is not linear, so that no shortcut computes the digest of a
//     matrix product without the product itself; not even (|x|), so that a sign shows. Errors of
//     random sign cancel in a bucket's sum (a million of them by a thousandfold), so the digest
//     also holds `digest_spots` elements of each output, chosen by the key, each compared with the
//     reference's within the tolerance: an output wrong in a share f of its elements is caught
//     with chance 1 − (1 − f)^64 per output in every sample, not only in the last one, which is
//     compared whole.
#include <cstdint>
#include <vector>

#include "adapter.hpp"
#include "array_file.hpp"

namespace cugrade::runner {

/// How sample k's inputs differ from the base inputs.
struct SampleVariant {
  std::int64_t shift = 0;   ///< rotation along the last dimension (taken modulo its length)
  bool negate = false;      ///< every element negated
  std::uint64_t signs = 0;  ///< nonzero: the key of each element's own sign flip (sign_flipped)
};

/// Buckets of a digest.
inline constexpr int digest_buckets = 64;

/// Elements of each output a digest holds as they are (spot_index chooses them).
inline constexpr int digest_spots = 64;

/// Per bucket: the weighted sum of |x_i| and the tolerance bound (reference side); and over all
/// elements the exact part: equal on both sides when every value is, so a step whose tolerance is
/// exact needs no comparison of its outputs in full.
struct Digest {
  std::vector<double> sums = std::vector<double>(digest_buckets, 0.0);
  std::vector<double> bounds = std::vector<double>(digest_buckets, 0.0);
  std::uint64_t exact = 0;  ///< the wrapping sum of exact_term over every element
  std::vector<double> spots;  ///< digest_spots elements of each output with any, in the outputs' order
};

/// Writes `base` (an array of `layout`'s type and shape, in `memory`) into `dest` rotated and
/// negated as `variant` says. Device memory: asynchronous on the legacy stream.
void write_sample_input(Memory memory, const void* base, void* dest, const Array& layout,
                        SampleVariant variant);

/// Adds the digest of one output (in `memory`, of `layout`'s type and shape) to `digest`; waits
/// for the device. `first` is the index its elements start at across all outputs.
void add_digest(Memory memory, const void* data, const Array& layout, std::uint64_t key,
                double atol, double rtol, std::int64_t first, Digest& digest);

/// write_sample_input for host memory.
void host_sample_input(const void* base, void* dest, const Array& layout, SampleVariant variant);

/// Moves every body of `dest` (a sample input of `layout`'s shape, f32, written by
/// write_sample_input with the same `shift`) along axis `axis` (0-3: x, y, vx, vy) by a keyed
/// amount: element i of the base by reach[i]·(2u − 1), u in [0, 1) hashed from `key`, `axis` and
/// the element's place in the sample. `reach` (f32, the base's shape) is in `memory` as `dest`
/// is. Device memory: asynchronous on the legacy stream.
void move_sample_bodies(Memory memory, const float* reach, float* dest, const Array& layout, std::int64_t shift,
                        std::uint64_t key, int axis);

/// move_sample_bodies for host memory.
void host_move_sample_bodies(const float* reach, float* dest, const Array& layout, std::int64_t shift,
                             std::uint64_t key, int axis);

/// add_digest for host memory.
void host_add_digest(const void* data, const Array& layout, std::uint64_t key, double atol, double rtol,
                     std::int64_t first, Digest& digest);

/// The digest's term of one element and the most it changes per unit change of the element.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline double digest_term(double x) { return (x < 0 ? -x : x) + 0.5 * x; }
inline constexpr double digest_slope = 1.5;

/// The keyed hash both digest implementations use (splitmix64 of key ^ index).
#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::uint64_t digest_hash(std::uint64_t key, std::uint64_t index) {
  std::uint64_t z = key ^ (index * 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The place in its output (of `n` > 0 elements, starting at `first` across all outputs) of the
/// digest's spot `j` under `key`.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::int64_t spot_index(std::uint64_t key, std::int64_t first, int j, std::int64_t n) {
  const std::uint64_t h = digest_hash(key ^ 0x3C6EF372FE94F82BULL, static_cast<std::uint64_t>(first) * 1024 + j);
  return static_cast<std::int64_t>(h % static_cast<std::uint64_t>(n));
}

/// Where element `i` of a base of rows of `cols` elements lands in a sample rotated by `shift`
/// (0 ≤ shift < cols) along its last dimension.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::int64_t sample_place(std::int64_t i, std::int64_t cols, std::int64_t shift) {
  return i - i % cols + (i % cols + shift) % cols;
}

/// Whether element `index` of a sample (its place after the rotation) has its sign flipped
/// under the key `signs` (none when 0): a keyed coin per element.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline bool sign_flipped(std::uint64_t signs, std::int64_t index) {
  return signs != 0 && (digest_hash(signs, static_cast<std::uint64_t>(index)) >> 63) != 0;
}

/// The keyed move of a body's coordinate along `axis` that move_sample_bodies adds: `reach` times
/// a number in [-1, 1), rounded to float; `to` is the element's place in the sample.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline float body_move(std::uint64_t key, std::int64_t to, int axis, float reach) {
  const std::uint64_t h = digest_hash(key ^ 0x6A09E667F3BCC909ULL, static_cast<std::uint64_t>(to) * 4 + axis);
  const double unit = static_cast<double>(h >> 11) * 0x1p-52 - 1.0;  // [-1, 1), 2^-52 apart
  return static_cast<float>(static_cast<double>(reach) * unit);
}

/// One element's term of the exact part: a keyed hash of its index and its value's bits as a
/// double (+0 and -0 alike, as a comparison with tolerance 0 takes them). Summed with wrap-around,
/// in any order: a changed value changes the sum but for a chance of 2^-64, and without the key
/// (sent after the call returned) no output can be made to match one it is not.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline std::uint64_t exact_term(std::uint64_t key, std::uint64_t index, double x) {
  if (x == 0) x = 0.0;
  std::uint64_t bits = 0;
#if defined(__CUDA_ARCH__)
  bits = static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  __builtin_memcpy(&bits, &x, sizeof bits);
#endif
  return digest_hash(key ^ 0xA0761D6478BD642FULL, digest_hash(key, index) ^ bits);
}

}  // namespace cugrade::runner
