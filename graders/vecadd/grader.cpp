// The trusted half of assignment vecadd (C = A + B): inputs from the seeded generator, the exact
// sum in double, and the bytes one call moves.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graders/grader.hpp"
#include "graders/random_arrays.hpp"

namespace cugrade {
namespace {

/// The size `n` of a case; a spec without a positive n is an authoring error, not a student's.
std::int64_t size_of(const Case& c) {
  const auto it = c.params.find("n");
  if (it == c.params.end() || it->second < 1)
    throw std::invalid_argument("vecadd case " + c.id + " needs a parameter n >= 1");
  return it->second;
}

CaseData generate(const Case& c, Rng& rng) {
  const std::int64_t n = size_of(c);
  CaseData data;
  data.inputs["A"] = uniform_f32(rng, {n});
  data.inputs["B"] = uniform_f32(rng, {n});
  data.outputs["C"] = make_array(DType::f32, {n});
  return data;
}

/// C[i] = combine(A[i], B[i]) for every i, in double.
template <class Combine>
ArraySet elementwise(const Case& c, const ArraySet& inputs, Combine combine) {
  const std::int64_t n = size_of(c);
  const float* a = inputs.at("A").data<float>();
  const float* b = inputs.at("B").data<float>();
  Array out = make_array(DType::f64, {n});
  for (std::int64_t i = 0; i < n; ++i) out.data<double>()[i] = combine(a[i], b[i]);
  return ArraySet{{"C", std::move(out)}};
}

ArraySet gold(const Case& c, const ArraySet& inputs) {
  // Exact: the sum of two floats always fits in a double.
  return elementwise(c, inputs, [](float a, float b) { return static_cast<double>(a) + static_cast<double>(b); });
}

/// The slips of a one-line kernel: an operand read twice, or the wrong operator (rounded to
/// float as the kernel's product is: the tolerance is tighter than a float's rounding).
const std::vector<MistakeModel> mistakes{
    {"A read twice", "your C equals A + A: A is read where B should be (c[i] = a[i] + b[i])", {},
     [](const Case& c, const ArraySet& inputs) {
       return elementwise(c, inputs, [](float a, float) { return 2.0 * static_cast<double>(a); });
     }},
    {"B read twice", "your C equals B + B: B is read where A should be (c[i] = a[i] + b[i])", {},
     [](const Case& c, const ArraySet& inputs) {
       return elementwise(c, inputs, [](float, float b) { return 2.0 * static_cast<double>(b); });
     }},
    {"product", "your C equals A·B element by element: the operator is * where it must be +", {},
     [](const Case& c, const ArraySet& inputs) {
       return elementwise(c, inputs, [](float a, float b) { return static_cast<double>(a * b); });
     }},
};

Work work(const std::string& /*step*/, const Params& params) {
  const double n = static_cast<double>(params.at("n"));
  // Reads A and B and writes C once each, 4 bytes an element; one addition is no FLOP/s worth
  // reporting, so the rate is bandwidth.
  return Work{.bytes = 12.0 * n, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work + mistake models of assignment vecadd.
// Uniform in [-1, 1): each element's sign flipped on its own is another such vector, whose sum
// is no rotated copy of an earlier sample's.
const Grader vecadd_grader{"vecadd", generate, gold, work, {.required = {"n"}}, mistakes, {"A", "B"}};
CUGRADE_REGISTER_GRADER(vecadd_grader);

}  // namespace cugrade
