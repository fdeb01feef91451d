// The trusted half of assignment matmul (C = A·B, row-major, A M×K, B K×N, C M×N): inputs from
// the seeded generator, the product in double, and the work of one call. Steps whose name ends
// in "_f64" (the lecture's double-precision table) take and return doubles; all others floats.
#include <cstdint>
#include <utility>
#include <vector>
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

/// Where a kernel reads A[i][p] and B[p][j]: at i·a_row + p·a_col and p·b_row + j·b_col. The
/// right layout (row-major, A M×K, B K×N) and the mistakes that read another element instead.
struct Layout {
  std::int64_t a_row, a_col, b_row, b_col;
  bool operator==(const Layout&) const = default;
};

/// The layout a kernel uses at sizes M, N, K.
using LayoutOf = Layout (*)(std::int64_t m, std::int64_t n, std::int64_t k);

Layout row_major(std::int64_t /*m*/, std::int64_t n, std::int64_t k) { return {k, 1, n, 1}; }

/// The product of a (m×k) and b (k×n) read through `layout`, summed in double in the order
/// p = 0..k-1.
template <class T>
Array product(const T* a, const T* b, std::int64_t m, std::int64_t n, std::int64_t k, Layout at) {
  Array c = make_array(DType::f64, {m, n});  // zero-filled
  double* out = c.data<double>();
  // The triple loop in i-k-j order: each C[i][j] still sums A[i][p]·B[p][j] for p = 0..K-1 in
  // order, but B and C are walked row by row, which keeps even 2048³ to seconds.
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t p = 0; p < k; ++p) {
      const double a_ip = a[i * at.a_row + p * at.a_col];
      for (std::int64_t j = 0; j < n; ++j) out[i * n + j] += a_ip * static_cast<double>(b[p * at.b_row + j * at.b_col]);
    }
  return c;
}

/// C = A·B of case `c` read through the layout `layout_of(m, n, k)` gives; an empty set where
/// that layout reads outside A or B, or is the right one (then it is no mistake).
ArraySet product_through(const Case& c, const ArraySet& inputs, LayoutOf layout_of) {
  const std::int64_t m = dim(c, "M"), n = dim(c, "N"), k = dim(c, "K");
  const Layout at = layout_of(m, n, k);
  if (layout_of != row_major && at == row_major(m, n, k)) return {};
  if ((m - 1) * at.a_row + (k - 1) * at.a_col >= m * k || (k - 1) * at.b_row + (n - 1) * at.b_col >= k * n) return {};
  const Array& a = inputs.at("A");
  const Array& b = inputs.at("B");
  if (a.type == DType::f64) return ArraySet{{"C", product(a.data<double>(), b.data<double>(), m, n, k, at)}};
  return ArraySet{{"C", product(a.data<float>(), b.data<float>(), m, n, k, at)}};
}

ArraySet gold(const Case& c, const ArraySet& inputs) { return product_through(c, inputs, row_major); }

/// The mistakes of lecture 002's indexing: an operand read with its indices swapped, or with the
/// other matrix's leading dimension (square-matrix code run on rectangles).
MistakeModel operand_mistake(std::string name, std::string explanation, LayoutOf layout_of) {
  return {std::move(name), std::move(explanation), {},
          [layout_of](const Case& c, const ArraySet& inputs) { return product_through(c, inputs, layout_of); }};
}

const std::vector<MistakeModel> mistakes{
    operand_mistake("A transposed",
                    "your C equals Aᵀ·B: A is read with its indices swapped (A[i][k] read at k·M + i, not i·K + k)",
                    [](std::int64_t m, std::int64_t n, std::int64_t) { return Layout{1, m, n, 1}; }),
    operand_mistake("B transposed",
                    "your C equals A·Bᵀ: B is read with its indices swapped (B[k][j] read at j·K + k, not k·N + j)",
                    [](std::int64_t, std::int64_t, std::int64_t k) { return Layout{k, 1, 1, k}; }),
    operand_mistake("A's rows N apart",
                    "your C is A·B with A's rows taken N apart: A's leading dimension is wrong (A[i][k] read at "
                    "i·N + k, not i·K + k)",
                    [](std::int64_t, std::int64_t n, std::int64_t) { return Layout{n, 1, n, 1}; }),
    operand_mistake("B's rows K apart",
                    "your C is A·B with B's rows taken K apart: B's leading dimension is wrong (B[k][j] read at "
                    "k·K + j, not k·N + j)",
                    [](std::int64_t, std::int64_t, std::int64_t k) { return Layout{k, 1, k, 1}; }),
};

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

/// Generator + gold + work + mistake models of assignment matmul.
// Uniform in [-1, 1): each element's sign flipped on its own is another such matrix.
const Grader matmul_grader{"matmul", generate, gold, work, {.required = {"M", "N", "K"}}, mistakes, {"A", "B"}};
CUGRADE_REGISTER_GRADER(matmul_grader);

}  // namespace cugrade
