#include "check/index_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace cugrade {
namespace {

/// Element (i, j) of an R×C matrix stored at i·row + j·col.
struct Placement {
  std::int64_t row, col;
};

/// What a placement does to a matrix, counted over every element (i, j).
struct Placed {
  std::int64_t past_end = 0;    ///< elements it sends past the end of the output
  std::int64_t reached = 0;     ///< places of the output it stores to
  std::int64_t collided = 0;    ///< places it sends more than one element to
  std::int64_t unreached = 0;   ///< places it never stores to
  bool explains = false;        ///< every place reached holds one of the elements sent there
  bool explains_wrong = false;  ///< and one of those is a wrong element of the output
};

bool close(double actual, double expected, const Tolerance& tol) {
  return std::fabs(actual - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

Placed place(const Array& actual, const Array& expected, const Tolerance& tol, Placement at) {
  const std::int64_t rows = actual.dims[0], cols = actual.dims[1], size = rows * cols;
  std::vector<std::uint8_t> sent(static_cast<std::size_t>(size), 0), held(static_cast<std::size_t>(size), 0);
  Placed out;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::int64_t p = i * at.row + j * at.col;
      if (p >= size) {
        ++out.past_end;
        continue;
      }
      auto& count = sent[static_cast<std::size_t>(p)];
      if (count < 2) ++count;
      if (close(actual.value(p), expected.value(i * cols + j), tol)) held[static_cast<std::size_t>(p)] = 1;
    }
  out.explains = true;
  for (std::int64_t p = 0; p < size; ++p) {
    const auto k = static_cast<std::size_t>(p);
    if (sent[k] == 0) {
      ++out.unreached;
      continue;
    }
    ++out.reached;
    out.collided += sent[k] > 1;
    if (!held[k]) out.explains = false;
    else if (!close(actual.value(p), expected.value(p), tol)) out.explains_wrong = true;
  }
  return out;
}

/// Where some of the gold's elements are found in `actual`: (i, j, place) for a few elements
/// spread over the matrix (a wrong index that sends several elements to one place overwrites
/// some of them, often the same ones: the first column's, by the rows after them), each at most
/// a few places (a value close to it by chance is told apart by place()).
struct Found {
  std::int64_t i, j, at;
};
std::vector<Found> find_some(const Array& actual, const Array& expected, const Tolerance& tol) {
  const std::int64_t rows = actual.dims[0], cols = actual.dims[1];
  std::vector<std::pair<std::int64_t, std::int64_t>> probes;
  for (const std::int64_t i : {std::int64_t{1}, std::int64_t{2}, rows / 2, rows - 1})
    for (const std::int64_t j : {std::int64_t{0}, std::int64_t{1}, cols / 2, cols - 1})
      if (i < rows && j < cols && std::ranges::find(probes, std::pair{i, j}) == probes.end()) probes.emplace_back(i, j);
  std::vector<int> hits(probes.size(), 0);
  std::vector<Found> found;
  for (std::int64_t p = 0; p < actual.size(); ++p)
    for (std::size_t q = 0; q < probes.size(); ++q) {
      const auto [i, j] = probes[q];
      if (hits[q] < 4 && close(actual.value(p), expected.value(i * cols + j), tol)) {
        ++hits[q];
        found.push_back({i, j, p});
      }
    }
  return found;
}

/// The first placement of a family (rows `a` apart, or columns `b` apart) that the values show.
std::optional<std::pair<Placement, Placed>> find_placement(const Array& actual, const Array& expected,
                                                           const Tolerance& tol, const std::vector<Found>& found,
                                                           bool by_rows) {
  const std::int64_t rows = actual.dims[0], cols = actual.dims[1];
  std::vector<std::int64_t> tried;
  for (const Found& f : found) {
    // Element (i, j) at i·a + j, or at j·b + i.
    const std::int64_t times = by_rows ? f.i : f.j, plus = by_rows ? f.j : f.i;
    if (times < 1 || f.at < plus || (f.at - plus) % times != 0) continue;
    const std::int64_t stride = (f.at - plus) / times;
    if (stride < 1 || (by_rows && stride == cols) || std::ranges::find(tried, stride) != tried.end()) continue;
    tried.push_back(stride);
    const Placement at = by_rows ? Placement{stride, 1} : Placement{1, stride};
    const Placed placed = place(actual, expected, tol, at);
    // Most elements inside the output, every place reached explained, a wrong one among them.
    if (placed.explains && placed.explains_wrong && 2 * placed.past_end < rows * cols) return std::pair{at, placed};
    if (tried.size() >= 8) break;
  }
  return std::nullopt;
}

std::string consequences(const Placed& placed) {
  std::string text;
  if (placed.collided > 0)
    text += fmt::format("; so {} ({} indices get more than one), and which one stays can change from run to run",
                        stores_collide, placed.collided);
  if (placed.past_end > 0) text += fmt::format("; {} elements were sent past the end of the output", placed.past_end);
  if (placed.unreached > 0)
    text += fmt::format("; {} places are never stored to and keep what they held before", placed.unreached);
  return text;
}

}  // namespace

std::string describe_stride_evidence(const Array& actual, const Array& expected, const Tolerance& tol) {
  if (actual.dims.size() != 2 || actual.dims != expected.dims) return "";
  if (actual.type != DType::f32 && actual.type != DType::f64) return "";
  const std::int64_t rows = actual.dims[0], cols = actual.dims[1];
  if (rows < 2 || cols < 2) return "";
  const std::vector<Found> some = find_some(actual, expected, tol);
  if (const auto found = find_placement(actual, expected, tol, some, true)) {
    const std::int64_t a = found->first.row;
    const std::string which = a == rows ? fmt::format(" ({} is its number of rows: the other dimension)", a) : "";
    return fmt::format("the right values are at the wrong places: element (i, j) was stored at index i·{} + j "
                       "instead of i·{} + j — {}: its rows are taken {} apart, where a row of this {}×{} output is {} "
                       "long{}{}",
                       a, cols, index_is_wrong, a, rows, cols, cols, which, consequences(found->second));
  }
  if (const auto found = find_placement(actual, expected, tol, some, false)) {
    const std::int64_t b = found->first.col;
    return fmt::format("the right values are at the wrong places: element (i, j) was stored at index j·{} + i "
                       "instead of i·{} + j — {}: row and column are swapped, and the columns are taken {} apart "
                       "(this output is {}×{}){}",
                       b, cols, index_is_wrong, b, rows, cols, consequences(found->second));
  }
  return "";
}

std::string describe_block_start_evidence(std::int64_t first_wrong, std::int64_t threads) {
  for (const std::int64_t block : {1024, 512, 256, 128, 64, 32}) {
    if (threads % block != 0 || threads / block < 2) continue;
    const std::int64_t grid = threads / block;
    if (first_wrong == block)
      return fmt::format("{}: {} is one block's threads, and {} blocks of {} threads stored to no element past it — "
                         "every block stores to the same elements: the index leaves out the block's start "
                         "(blockIdx.x * blockDim.x + threadIdx.x, not threadIdx.x alone)",
                         index_is_wrong, first_wrong, grid, block);
    if (first_wrong == grid + block - 1)
      return fmt::format("{}: {} = {} + {} − 1 is the first index blockIdx.x + threadIdx.x never reaches with {} "
                         "blocks of {} threads — block b must start at b·blockDim.x (blockIdx.x * blockDim.x + "
                         "threadIdx.x); without the factor blockDim.x the blocks overlap",
                         index_is_wrong, first_wrong, grid, block, grid, block);
    if (grid < block && first_wrong == (grid - 1) * grid + block)
      return fmt::format("{}: {} = ({} − 1)·{} + {} is the first index blockIdx.x * gridDim.x + threadIdx.x never "
                         "reaches with {} blocks of {} threads — block b must start at b·blockDim.x, not b·gridDim.x; "
                         "the blocks overlap",
                         index_is_wrong, first_wrong, grid, grid, block, grid, block);
  }
  return "";
}

}  // namespace cugrade
