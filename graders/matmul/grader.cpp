// The trusted half of assignment matmul (C = A·B, row-major, A M×K, B K×N, C M×N): inputs from
// the seeded generator, the product in double, and the work of one call. Steps whose name ends
// in "_f64" (the lecture's double-precision table) take and return doubles; all others floats.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "graders/grader.hpp"
#include "graders/random_arrays.hpp"

namespace cugrade {
namespace {

/// Dimension `name` (M, N or K) of a case; a spec without it, or with it < 1, is an authoring
/// error, not a student's.
std::int64_t dim(const Case& c, const char* name) {
  const auto it = c.params.find(name);
  if (it == c.params.end() || it->second < 1)
    throw std::invalid_argument("matmul case " + c.id + " needs a parameter " + name + " >= 1");
  return it->second;
}

/// Whether `step` is a double-precision step ("naive_f64", ...).
bool is_f64(const std::string& step) { return step.ends_with("_f64"); }

CaseData generate(const Case& c, Rng& rng) {
  const std::int64_t m = dim(c, "M"), n = dim(c, "N"), k = dim(c, "K");
  const bool f64 = is_f64(c.step);
  CaseData data;
  data.inputs["A"] = f64 ? uniform_f64(rng, {m, k}) : uniform_f32(rng, {m, k});
  data.inputs["B"] = f64 ? uniform_f64(rng, {k, n}) : uniform_f32(rng, {k, n});
  data.outputs["C"] = make_array(f64 ? DType::f64 : DType::f32, {m, n});
  return data;
}

/// The product of row-major a (m×k) and b (k×n), summed in double in the order p = 0..k-1.
template <class T>
Array product(const T* a, const T* b, std::int64_t m, std::int64_t n, std::int64_t k) {
  Array c = make_array(DType::f64, {m, n});  // zero-filled
  double* out = c.data<double>();
  // The triple loop in i-k-j order: each C[i][j] still sums A[i][p]·B[p][j] for p = 0..K-1 in
  // order, but B and C are walked row by row, which keeps even 2048³ to seconds.
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t p = 0; p < k; ++p) {
      const double a_ip = a[i * k + p];
      for (std::int64_t j = 0; j < n; ++j) out[i * n + j] += a_ip * static_cast<double>(b[p * n + j]);
    }
  return c;
}

ArraySet gold(const Case& c, const ArraySet& inputs) {
  const std::int64_t m = dim(c, "M"), n = dim(c, "N"), k = dim(c, "K");
  const Array& a = inputs.at("A");
  const Array& b = inputs.at("B");
  if (a.type == DType::f64)
    return ArraySet{{"C", product(a.data<double>(), b.data<double>(), m, n, k)}};
  return ArraySet{{"C", product(a.data<float>(), b.data<float>(), m, n, k)}};
}

Work work(const std::string& step, const Params& params) {
  const double m = static_cast<double>(params.at("M"));
  const double n = static_cast<double>(params.at("N"));
  const double k = static_cast<double>(params.at("K"));
  // The fewest bytes: A and B read once, C written once, in 4-byte floats or 8-byte doubles;
  // every step does the same arithmetic, one multiply and one add per term of each of the M·N
  // dot products.
  const double element = is_f64(step) ? 8.0 : 4.0;
  return Work{.bytes = element * (m * k + k * n + m * n), .flops = 2.0 * m * n * k, .items = 0.0,
              .rate_unit = "TFLOP/s"};
}

}  // namespace

/// Generator + gold + work of assignment matmul.
const Grader matmul_grader{"matmul", generate, gold, work, {.required = {"M", "N", "K"}}};
CUGRADE_REGISTER_GRADER(matmul_grader);

}  // namespace cugrade
