// The trusted half of assignment transpose (row-major; `in` rows×cols, its transpose `out`
// cols×rows, the copy baseline's `out` rows×cols): inputs from the seeded generator, the
// expected output, and the work of one call.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

/// `in` as doubles in an array of shape `dims`, element `i` at `place(i)` (a row-major index).
template <class Place>
ArraySet placed(const ArraySet& inputs, std::vector<std::int64_t> dims, Place place) {
  const Array& in = inputs.at("in");
  // In double like every gold; a float converts to double exactly, so the exact comparison the
  // spec asks for compares the very bits the kernel had to move.
  Array out = make_array(DType::f64, std::move(dims));
  for (std::int64_t i = 0; i < in.size(); ++i) out.data<double>()[place(i)] = in.value(i);
  return ArraySet{{"out", std::move(out)}};
}

ArraySet gold(const Case& c, const ArraySet& inputs) {
  const std::int64_t rows = dim(c, "rows"), cols = dim(c, "cols");
  if (is_copy(c)) return placed(inputs, {rows, cols}, [](std::int64_t i) { return i; });
  return placed(inputs, {cols, rows}, [&](std::int64_t i) { return i % cols * rows + i / cols; });
}

/// The tile of the lectures' tiled kernels (TILE_DIM).
constexpr std::int64_t kTile = 32;

/// The transposing steps' mistakes: nothing moved, or whole tiles moved but not transposed
/// (defined only where every tile is full: elsewhere such a kernel stores what it never loaded).
const std::vector<MistakeModel> mistakes{
    {"plain copy",
     "your out is a plain copy of in: each element is stored at the index it was read from (out[r·cols + c] "
     "instead of out[c·rows + r])",
     {"naive", "coalesced", "padded", "stretch"},
     [](const Case& c, const ArraySet& inputs) {
       const std::int64_t rows = dim(c, "rows"), cols = dim(c, "cols");
       if (rows == 1 || cols == 1) return ArraySet{};  // there the copy is the transpose
       return placed(inputs, {cols, rows}, [](std::int64_t i) { return i; });
     }},
    {"tile not transposed",
     "your out has each 32×32 tile in its transposed place but not transposed itself: the storing phase "
     "reads the tile by rows (tile[y][x]) where it must read it by columns (tile[x][y])",
     {"coalesced", "padded", "stretch"},
     [](const Case& c, const ArraySet& inputs) {
       const std::int64_t rows = dim(c, "rows"), cols = dim(c, "cols");
       if (rows % kTile != 0 || cols % kTile != 0 || (rows == kTile && cols == kTile)) return ArraySet{};
       return placed(inputs, {cols, rows}, [&](std::int64_t i) {
         const std::int64_t r = i / cols, k = i % cols;  // in[r][k] lands at out[k - k%T + r%T][r - r%T + k%T]
         return (k - k % kTile + r % kTile) * rows + (r - r % kTile + k % kTile);
       });
     }},
};

Work work(const std::string& /*step*/, const Params& params) {
  const double rows = static_cast<double>(params.at("rows"));
  const double cols = static_cast<double>(params.at("cols"));
  // Every step reads each float of `in` once and writes each float of `out` once; no arithmetic.
  return Work{.bytes = 2.0 * 4.0 * rows * cols, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work + mistake models of assignment transpose.
// Uniform in [-1, 1): each element's sign flipped on its own is another such matrix, whose
// transpose is no rotated copy of an earlier sample's.
const Grader transpose_grader{"transpose", generate, gold, work, {.required = {"rows", "cols"}}, mistakes, {"in"}};
CUGRADE_REGISTER_GRADER(transpose_grader);

}  // namespace cugrade
