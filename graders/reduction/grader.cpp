// The trusted half of assignment reduction (out[0] = the sum of n ints): inputs from the seeded
// generator, the exact sum, and the bytes one call must read.
#include <cstdint>
#include <stdexcept>
#include <string>

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

ArraySet gold(const Case& c, const ArraySet& inputs) {
  const std::int64_t n = size_of(c);
  const std::int32_t* in = inputs.at("in").data<std::int32_t>();
  // Exact in 64-bit integers (at most 2^31 · 1000 in magnitude); a double would be exact too,
  // but an integer gold makes the comparison an integer one.
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < n; ++i) total += in[i];
  Array sum = make_array(DType::i64, {1});
  sum.data<std::int64_t>()[0] = total;
  return ArraySet{{"out", std::move(sum)}};
}

Work work(const std::string& /*step*/, const Params& params) {
  const double n = static_cast<double>(params.at("n"));
  // The lectures' metric: the input read once, 4 bytes an element (the one 8-byte result is
  // negligible); one addition per element is no FLOP/s worth reporting.
  return Work{.bytes = 4.0 * n, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work of assignment reduction.
const Grader reduction_grader{"reduction", generate, gold, work, {.required = {"n"}}};
CUGRADE_REGISTER_GRADER(reduction_grader);

}  // namespace cugrade
