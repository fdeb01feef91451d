// The trusted half of assignment transpose (row-major; `in` rows×cols, its transpose `out`
// cols×rows, the copy baseline's `out` rows×cols): inputs from the seeded generator, the
// expected output, and the work of one call.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "graders/grader.hpp"
#include "graders/random_arrays.hpp"

namespace cugrade {
namespace {

/// Dimension `name` (rows or cols) of a case; a spec without it, or with it < 1, is an authoring
/// error, not a student's.
std::int64_t dim(const Case& c, const char* name) {
  const auto it = c.params.find(name);
  if (it == c.params.end() || it->second < 1)
    throw std::invalid_argument("transpose case " + c.id + " needs a parameter " + name + " >= 1");
  return it->second;
}

/// The copy step keeps the shape; every other step transposes it.
bool is_copy(const Case& c) { return c.step == "copy"; }

CaseData generate(const Case& c, Rng& rng) {
  const std::int64_t rows = dim(c, "rows"), cols = dim(c, "cols");
  CaseData data;
  data.inputs["in"] = uniform_f32(rng, {rows, cols});
  data.outputs["out"] = is_copy(c) ? make_array(DType::f32, {rows, cols}) : make_array(DType::f32, {cols, rows});
  return data;
}

ArraySet gold(const Case& c, const ArraySet& inputs) {
  const std::int64_t rows = dim(c, "rows"), cols = dim(c, "cols");
  const float* in = inputs.at("in").data<float>();
  // In double like every gold; a float converts to double exactly, so the exact comparison the
  // spec asks for compares the very bits the kernel had to move.
  Array expected = is_copy(c) ? make_array(DType::f64, {rows, cols}) : make_array(DType::f64, {cols, rows});
  double* out = expected.data<double>();
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < cols; ++k)
      out[is_copy(c) ? r * cols + k : k * rows + r] = static_cast<double>(in[r * cols + k]);
  return ArraySet{{"out", std::move(expected)}};
}

Work work(const std::string& /*step*/, const Params& params) {
  const double rows = static_cast<double>(params.at("rows"));
  const double cols = static_cast<double>(params.at("cols"));
  // Every step reads each float of `in` once and writes each float of `out` once; no arithmetic.
  return Work{.bytes = 2.0 * 4.0 * rows * cols, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work of assignment transpose.
const Grader transpose_grader{"transpose", generate, gold, work, {.required = {"rows", "cols"}}};
CUGRADE_REGISTER_GRADER(transpose_grader);

}  // namespace cugrade
