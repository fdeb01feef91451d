// The trusted half of assignment reduction (out[0] = the sum of n ints): inputs from the seeded
// generator, the exact sum, and the bytes one call must read.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graders/grader.hpp"

namespace cugrade {
namespace {

/// The size `n` of a case; a spec without a positive n is an authoring error, not a student's.
std::int64_t size_of(const Case& c) {
  const auto it = c.params.find("n");
  if (it == c.params.end() || it->second < 1)
    throw std::invalid_argument("reduction case " + c.id + " needs a parameter n >= 1");
  return it->second;
}

CaseData generate(const Case& c, Rng& rng) {
  const std::int64_t n = size_of(c);
  CaseData data;
  Array in = make_array(DType::i32, {n});
  std::int32_t* values = in.data<std::int32_t>();
  // Integers in [-1000, 1000], both signs: a kernel that drops or doubles any element is off
  // by a visible amount, and no block's partial sum comes near the range of an int.
  for (std::int64_t i = 0; i < n; ++i) values[i] = static_cast<std::int32_t>(rng.integer(-1000, 1000));
  data.inputs["in"] = std::move(in);
  data.outputs["out"] = make_array(DType::i64, {1});
  return data;
}

/// The sum of in[first..last) plus `extra`, exactly, as the gold's output.
ArraySet sum_of(const ArraySet& inputs, std::int64_t first, std::int64_t last, std::int64_t extra) {
  const std::int32_t* in = inputs.at("in").data<std::int32_t>();
  // Exact in 64-bit integers (at most 2^31 · 1000 in magnitude); a double would be exact too,
  // but an integer gold makes the comparison an integer one.
  std::int64_t total = extra;
  for (std::int64_t i = first; i < last; ++i) total += in[i];
  Array sum = make_array(DType::i64, {1});
  sum.data<std::int64_t>()[0] = total;
  return ArraySet{{"out", std::move(sum)}};
}

ArraySet gold(const Case& c, const ArraySet& inputs) { return sum_of(inputs, 0, size_of(c), 0); }

/// What the runner fills an i64 output with before each call: 0xFF bytes (-1).
constexpr std::int64_t kPoisonedOut = -1;

/// The sum without the last partial block of `block` elements (a grid of n / block blocks,
/// rounded down); defined only where n > block and that block holds more than one element (one is
/// the "last element left out" model's, tried first).
MistakeModel partial_block_left_out(std::int64_t block) {
  return {"last partial block of " + std::to_string(block) + " left out",
          "your sum leaves out the last n mod " + std::to_string(block) + " elements (the last partial block of " +
              std::to_string(block) + "): is the grid rounded down (n / " + std::to_string(block) +
              " blocks), or does a bound stop one short where the partial sums are added up?",
          {},
          [block](const Case& c, const ArraySet& inputs) {
            const std::int64_t n = size_of(c);
            if (n <= block || n % block <= 1) return ArraySet{};
            return sum_of(inputs, 0, n - n % block, 0);
          }};
}

/// How a two-loads-per-thread kernel (reduce4 to reduce6) indexes its loads by mistake.
enum class TwoLoadIndex {
  start_without_two,   ///< block b starts at b·blockDim.x, not b·(2·blockDim.x)
  second_load_next,    ///< the second load reads in[i + 1], not in[i + blockDim.x]
};

/// One launch of such a kernel with `threads` threads a block over `values`: each block's sum.
std::vector<std::int64_t> two_load_level(const std::vector<std::int64_t>& values, std::int64_t threads,
                                         TwoLoadIndex index) {
  const auto size = static_cast<std::int64_t>(values.size());
  const auto at = [&](std::int64_t i) { return i < size ? values[static_cast<std::size_t>(i)] : 0; };
  std::vector<std::int64_t> sums(static_cast<std::size_t>((size + 2 * threads - 1) / (2 * threads)), 0);
  for (std::size_t b = 0; b < sums.size(); ++b)
    for (std::int64_t t = 0; t < threads; ++t) {
      const auto block = static_cast<std::int64_t>(b);
      if (index == TwoLoadIndex::start_without_two) sums[b] += at(block * threads + t) + at(block * threads + t + threads);
      else sums[b] += at(block * 2 * threads + t) + at(block * 2 * threads + t + 1);
    }
  return sums;
}

/// The sum such a kernel gives when relaunched over its partial sums until one is left (the
/// lectures' driver), with `threads` threads a block; empty where it is the gold itself.
MistakeModel two_load_index(TwoLoadIndex index, std::int64_t threads) {
  const std::string b = std::to_string(threads);
  const bool start = index == TwoLoadIndex::start_without_two;
  return {std::string(start ? "block start without the factor 2" : "second load at i + 1") + " (" + b + " threads)",
          start ? "your sum is what blocks of " + b + " threads give when block b's first index is b·blockDim.x: each "
                  "block adds 2·blockDim.x elements, so its first index must be b·(2·blockDim.x) (the factor 2 is "
                  "missing); neighbouring blocks overlap, and the end of the input is never read"
                : "your sum is what blocks of " + b + " threads give when the second element a thread adds is "
                  "in[i + 1]: its index must be i + blockDim.x (the stride of the second load is 1, not blockDim.x); "
                  "each block adds the first half of its elements nearly twice and its second half never",
          {"reduce4", "reduce5", "reduce6"},
          [index, threads](const Case& c, const ArraySet& inputs) {
            const std::int64_t n = size_of(c);
            const std::int32_t* in = inputs.at("in").data<std::int32_t>();
            std::vector<std::int64_t> values(in, in + n);
            std::int64_t right = 0;
            for (std::int64_t v : values) right += v;
            while (values.size() > 1) values = two_load_level(values, threads, index);
            if (values.empty() || values[0] == right) return ArraySet{};
            return sum_of(inputs, 0, 0, values[0]);
          }};
}

/// The sums a reduction gets when its bounds are off by one, when it adds to `out` without
/// setting it first (the poisoned -1 counted in), when its grid drops the last partial block
/// (blocks of 128 to 1024 elements: one per thread, or two per thread of 64 to 512), or when a
/// two-loads-per-thread kernel's index misses its factor 2 or its second load's stride.
const std::vector<MistakeModel> mistakes{
    {"first element left out", "your sum leaves out in[0]: the first element is not counted", {},
     [](const Case& c, const ArraySet& inputs) { return sum_of(inputs, 1, size_of(c), 0); }},
    {"last element left out", "your sum leaves out in[n − 1]: the last element is not counted", {},
     [](const Case& c, const ArraySet& inputs) { return sum_of(inputs, 0, size_of(c) - 1, 0); }},
    {"poison counted in",
     "your sum is 1 less than the right one: out starts as -1 (cugrade fills outputs with 0xFF bytes before "
     "each call) and your code adds to it without setting it first",
     {},
     [](const Case& c, const ArraySet& inputs) { return sum_of(inputs, 0, size_of(c), kPoisonedOut); }},
    partial_block_left_out(128), partial_block_left_out(256), partial_block_left_out(512),
    partial_block_left_out(1024),
    two_load_index(TwoLoadIndex::start_without_two, 128), two_load_index(TwoLoadIndex::start_without_two, 256),
    two_load_index(TwoLoadIndex::start_without_two, 512), two_load_index(TwoLoadIndex::second_load_next, 128),
    two_load_index(TwoLoadIndex::second_load_next, 256), two_load_index(TwoLoadIndex::second_load_next, 512),
};

Work work(const std::string& /*step*/, const Params& params) {
  const double n = static_cast<double>(params.at("n"));
  // The lectures' metric: the input read once, 4 bytes an element (the one 8-byte result is
  // negligible); one addition per element is no FLOP/s worth reporting.
  return Work{.bytes = 4.0 * n, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work + mistake models of assignment reduction.
// Any sign of any element is an input like the others (the generator draws both): the samples
// flip them one by one, so that a sum changes from sample to sample (a rotation leaves it alone).
const Grader reduction_grader{"reduction", generate, gold, work, {.required = {"n"}}, mistakes, {"in"}};
CUGRADE_REGISTER_GRADER(reduction_grader);

}  // namespace cugrade
