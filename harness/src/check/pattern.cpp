#include "check/pattern.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "check/coords.hpp"
#include "check/index_evidence.hpp"

namespace cugrade {
namespace {

using Line = std::optional<std::string>;

// Tile and block sizes tried, most common first: a mismatch confined to the edge of a 32-wide
// tiling is the classic missing bounds check; 16 and 8 catch smaller tiles on small matrices.
constexpr std::int64_t kTileSizes[] = {32, 16, 8};
constexpr std::int64_t kBlockSizes[] = {256, 128, 32};
// "Few rows/columns" and "scattered" thresholds: beyond these a list or a race hint stops helping.
constexpr std::size_t kMaxListedLines = 4;
constexpr std::int64_t kScatteredFraction = 10;  // at most 1 in 10 elements wrong

/// The wrong elements of a mask, counted once.
struct Census {
  std::int64_t size = 0;
  std::int64_t wrong = 0;
  std::int64_t nonfinite = 0;
  std::int64_t output_fill = 0;   ///< wrong elements still holding the runner's output fill
  std::int64_t output_added = 0;  ///< wrong elements holding that fill after arithmetic on it
  std::int64_t output_partial = 0;  ///< wrong elements whose last bytes still hold that fill
  std::int64_t device_fill = 0;   ///< wrong elements holding fresh cudaMalloc memory (CPU backend)
  std::int64_t device_added = 0;  ///< wrong elements holding that fill after arithmetic on it
  std::vector<std::int64_t> wrong_indices;  ///< ascending
};

Census take_census(const MismatchMask& mask) {
  Census c;
  c.size = static_cast<std::int64_t>(mask.wrong.size());
  for (std::int64_t i = 0; i < c.size; ++i) {
    if (!mask.wrong[static_cast<std::size_t>(i)]) continue;
    ++c.wrong;
    c.wrong_indices.push_back(i);
    if (static_cast<std::size_t>(i) < mask.nonfinite.size() && mask.nonfinite[static_cast<std::size_t>(i)])
      ++c.nonfinite;
    if (static_cast<std::size_t>(i) < mask.fill.size()) {
      const Fill f = mask.fill[static_cast<std::size_t>(i)];
      c.output_fill += f == Fill::output;
      c.output_added += f == Fill::output_added;
      c.output_partial += f == Fill::output_partial;
      c.device_fill += f == Fill::device;
      c.device_added += f == Fill::device_added;
    }
  }
  return c;
}

std::string where(const MismatchMask& mask, std::int64_t index) {
  return describe_position(unravel_index(index, mask.dims));
}

std::string join_numbers(const std::vector<std::int64_t>& numbers) {
  return fmt::format("{}", fmt::join(numbers, ", "));
}

/// What the wrong elements hold, as a clause ("still hold the value cugrade filled the output
/// with ..."), when every one holds one and the same fill; "" otherwise. `one`: a single element.
std::string never_written(const Census& c, bool one = false) {
  const char* verb_hold = one ? "holds" : "hold";
  if (c.output_fill == c.wrong)
    return fmt::format("still {} the value cugrade filled the output with before the call: never written (or the "
                       "result was never copied back into it)", verb_hold);
  if (c.output_added == c.wrong)
    return fmt::format("{} NaN from arithmetic on the value cugrade filled the output with: the code adds into the "
                       "output (C += ...) instead of assigning it (C = ...), and nothing zeroed it first",
                       one ? "is" : "are");
  if (c.device_fill == c.wrong)
    return fmt::format("{} what fresh cudaMalloc memory holds on the CPU backend: copied from device memory no "
                       "kernel wrote", verb_hold);
  if (c.device_added == c.wrong)
    return fmt::format("{} NaN from arithmetic on fresh cudaMalloc memory: something was added into device memory "
                       "that was never zeroed (cudaMemset it to 0, or assign instead of +=)", one ? "is" : "are");
  return "";
}

// ---- 2-D patterns: rows × cols, row-major --------------------------------------------------

struct Grid {
  std::int64_t rows, cols;
  std::int64_t row(std::int64_t i) const { return i / cols; }
  std::int64_t col(std::int64_t i) const { return i % cols; }
};

/// Wrong set inside rows ≥ R or columns ≥ C, R and C the last tile boundaries: the bounds check
/// of partial tiles is missing or wrong.
Line partial_tile(const Census& c, const Grid& g) {
  for (std::int64_t t : kTileSizes) {
    const std::int64_t r_edge = g.rows / t * t, c_edge = g.cols / t * t;
    if (r_edge == 0 || c_edge == 0 || (r_edge == g.rows && c_edge == g.cols)) continue;
    bool inside = false, all_rows = true, all_cols = true;
    for (auto i : c.wrong_indices) {
      const bool in_rows = g.row(i) >= r_edge, in_cols = g.col(i) >= c_edge;
      inside |= !in_rows && !in_cols;
      all_rows &= in_rows;
      all_cols &= in_cols;
    }
    if (inside) continue;
    // The first wrong row (column) where every wrong element lies past the edge: a part of the
    // partial tile may be right (rows 16–23 of a 31-row matrix's last 16-row tile).
    std::int64_t first_row = g.rows, first_col = g.cols;
    for (auto i : c.wrong_indices) {
      first_row = std::min(first_row, g.row(i));
      first_col = std::min(first_col, g.col(i));
    }
    std::string region;
    if (all_rows && all_cols) region = fmt::format("rows ≥ {} and columns ≥ {}", first_row, first_col);
    else if (all_rows) region = fmt::format("rows ≥ {}", first_row);
    else if (all_cols) region = fmt::format("columns ≥ {}", first_col);
    else region = fmt::format("rows ≥ {} or columns ≥ {}", r_edge, c_edge);
    return fmt::format("only the last partial tile is wrong: {} (the matrix is {}×{}; check the "
                       "bounds of partial tiles)", region, g.rows, g.cols);
  }
  return std::nullopt;
}

/// Half or more of one aligned t×t tile wrong, and nothing outside it (with more than one tile).
Line one_tile(const Census& c, const Grid& g) {
  for (std::int64_t t : kTileSizes) {
    if (g.rows <= t && g.cols <= t) continue;
    const std::int64_t tr = g.row(c.wrong_indices.front()) / t, tc = g.col(c.wrong_indices.front()) / t;
    const bool confined = std::all_of(c.wrong_indices.begin(), c.wrong_indices.end(), [&](auto i) {
      return g.row(i) / t == tr && g.col(i) / t == tc;
    });
    const std::int64_t r1 = std::min(g.rows, (tr + 1) * t), c1 = std::min(g.cols, (tc + 1) * t);
    const std::int64_t area = (r1 - tr * t) * (c1 - tc * t);
    if (!confined || 2 * c.wrong < area) continue;
    return fmt::format("only one {}×{} tile is wrong: rows {}–{}, columns {}–{}", t, t, tr * t,
                       r1 - 1, tc * t, c1 - 1);
  }
  return std::nullopt;
}

/// Half or more of one aligned block of t rows (or columns) wrong, and nothing outside it; where
/// the wrong ones are fewer lines than the block, those lines.
Line one_block(const Census& c, const Grid& g, bool by_rows) {
  const std::int64_t lines = by_rows ? g.rows : g.cols, across = by_rows ? g.cols : g.rows;
  auto line_of = [&](std::int64_t i) { return by_rows ? g.row(i) : g.col(i); };
  for (std::int64_t t : kTileSizes) {
    if (lines <= t) continue;
    const std::int64_t b = line_of(c.wrong_indices.front()) / t;
    const bool confined = std::all_of(c.wrong_indices.begin(), c.wrong_indices.end(),
                                      [&](auto i) { return line_of(i) / t == b; });
    const std::int64_t last = std::min(lines, (b + 1) * t) - 1;
    if (!confined || 2 * c.wrong < (last - b * t + 1) * across) continue;
    const char* what = by_rows ? "row" : "column";
    std::int64_t lo = last, hi = b * t;
    for (auto i : c.wrong_indices) {
      lo = std::min(lo, line_of(i));
      hi = std::max(hi, line_of(i));
    }
    if (lo > b * t || hi < last) return fmt::format("only {}s {}–{} are wrong", what, lo, hi);
    return fmt::format("only {} block {} ({}s {}–{}) is wrong", what, b, what, b * t, last);
  }
  return std::nullopt;
}

/// At most a few rows (or columns) hold every wrong element, each of them half wrong or more.
Line few_lines(const Census& c, const Grid& g, bool by_rows) {
  const std::int64_t lines = by_rows ? g.rows : g.cols, across = by_rows ? g.cols : g.rows;
  std::vector<std::int64_t> count(static_cast<std::size_t>(lines), 0);
  for (auto i : c.wrong_indices) ++count[static_cast<std::size_t>(by_rows ? g.row(i) : g.col(i))];
  std::vector<std::int64_t> hit;
  for (std::int64_t l = 0; l < lines; ++l) {
    const auto n = count[static_cast<std::size_t>(l)];
    if (n == 0) continue;
    if (2 * n < across) return std::nullopt;
    hit.push_back(l);
  }
  if (hit.size() > kMaxListedLines || static_cast<std::int64_t>(hit.size()) == lines) return std::nullopt;
  const char* what = by_rows ? "row" : "column";
  if (hit.size() == 1) return fmt::format("only {} {} is wrong", what, hit[0]);
  return fmt::format("only {}s {} are wrong", what, join_numbers(hit));
}

Line matrix_pattern(const Census& c, const Grid& g) {
  if (auto line = partial_tile(c, g)) return line;
  if (auto line = one_tile(c, g)) return line;
  if (auto line = one_block(c, g, true)) return line;
  if (auto line = one_block(c, g, false)) return line;
  if (auto line = few_lines(c, g, true)) return line;
  return few_lines(c, g, false);
}

// ---- 1-D patterns ----------------------------------------------------------------------------

/// Exactly the elements from p on are wrong: the grid stopped short, or a copy did. Each cause is
/// named only on its evidence: a copy given elements for bytes leaves exactly size/element_bytes
/// elements written and the rest with the runner's fill; a grid stops at a multiple of a block.
Line wrong_suffix(const Census& c, const MismatchMask& mask) {
  const std::int64_t p = c.wrong_indices.front();
  if (p == 0 || c.wrong != c.size - p) return std::nullopt;
  const std::string held = never_written(c);
  const std::string head = fmt::format("elements from index {} on are wrong (the first {} are right)", p, p);
  // The element at p may be partly written (the byte count stopped inside it): every later one
  // must still hold the fill.
  std::int64_t fill_after_p = 0;
  for (auto i : c.wrong_indices)
    fill_after_p += i > p && static_cast<std::size_t>(i) < mask.fill.size() && mask.fill[static_cast<std::size_t>(i)] == Fill::output;
  if (c.wrong > 1 && fill_after_p == c.wrong - 1 && mask.element_bytes > 1 && p == c.size / mask.element_bytes)
    return fmt::format("{} and still hold the value cugrade filled the output with before the call (never written, "
                       "or never copied back): {} = {} / {}, as if a cudaMemcpy or cudaMemset was given the number "
                       "of elements where it takes bytes (n * sizeof(element))",
                       head, p, c.size, mask.element_bytes);
  // Where the runner counted the call's threads and one launch had one for every element, the
  // grid was not too small: only what is left is named (a 16-bit index at 65536 or 32768).
  if (mask.launched_threads >= c.size) {
    const std::string rest = held.empty() ? "" : "; the rest " + held;
    const std::string enough = fmt::format("the call's largest launch had {} threads, one for every element, {}",
                                           mask.launched_threads, grid_was_large_enough);
    const std::string wrong = fmt::format("elements from index {} on are wrong (the first {} are right{})", p, p, rest);
    if (p == 65536 || p == 32768)
      return fmt::format("{}: {}: an index kept in 16 bits ({}) overflows at {}; keep indices in int", wrong, enough,
                         p == 65536 ? "unsigned short" : "short", p);
    // The index first: a step's summary shows a line's start.
    if (const std::string index = describe_block_start_evidence(p, mask.launched_threads); !index.empty())
      return fmt::format("elements from index {} on are wrong and {} (the first {} are right{}; {})", p, index, p, rest,
                         enough);
    return fmt::format("{}: {}: do the blocks overlap (does each block start at blockIdx.x * blockDim.x?), or "
                       "does an index stop short of n?", wrong, enough);
  }
  // 65536 and 32768: where an unsigned or signed 16-bit index wraps.
  const std::string wraps = p == 65536 || p == 32768 ? " (or a 16-bit index, which would overflow there)" : "";
  for (std::int64_t b : kBlockSizes) {
    if (p % b == 0)
      return fmt::format("elements from index {} on are wrong (the first {} = {} × {} are right{}): too few blocks "
                         "launched{}, or blocks that overlap (does each block start at blockIdx.x * blockDim.x)?",
                         p, p, p / b, b, held.empty() ? "" : "; the rest " + held, wraps);
  }
  // An index that does not step by a whole block (threadIdx.x + blockIdx.x) leaves a prefix of
  // no block's size written, as a grid too small does.
  if (!held.empty())
    return fmt::format("{}: they {}; does the grid cover every element{}, and does each block start at "
                       "blockIdx.x * blockDim.x?", head, held, wraps);
  return head;
}

/// Exactly the first p elements are wrong.
Line wrong_prefix(const Census& c) {
  if (c.wrong_indices.front() != 0 || c.wrong_indices.back() != c.wrong - 1) return std::nullopt;
  return fmt::format("only the first {} elements are wrong (the last {} are right)", c.wrong,
                     c.size - c.wrong);
}

/// Every wrong element lies in the last, partial block of b elements.
Line partial_block(const Census& c) {
  for (std::int64_t b : kBlockSizes) {
    const std::int64_t edge = c.size / b * b;
    if (edge == 0 || edge == c.size || c.wrong_indices.front() < edge) continue;
    return fmt::format("only the last partial block is wrong: indices ≥ {} (n = {}; check the "
                       "bounds test in the last block)", edge, c.size);
  }
  return std::nullopt;
}

/// Exactly the even (or the odd) indices are wrong.
Line every_other(const Census& c) {
  if (c.size < 4) return std::nullopt;
  const std::int64_t parity = c.wrong_indices.front();
  if (parity > 1 || c.wrong != (c.size - parity + 1) / 2) return std::nullopt;
  for (std::size_t k = 0; k < c.wrong_indices.size(); ++k)
    if (c.wrong_indices[k] != parity + 2 * static_cast<std::int64_t>(k)) return std::nullopt;
  return fmt::format("every other element is wrong (the {} indices)", parity == 0 ? "even" : "odd");
}

Line vector_pattern(const Census& c, const MismatchMask& mask) {
  if (auto line = wrong_suffix(c, mask)) return line;
  if (auto line = wrong_prefix(c)) return line;
  if (auto line = partial_block(c)) return line;
  return every_other(c);
}

// ---- any shape -------------------------------------------------------------------------------

Line single_element(const Census& c, const MismatchMask& mask) {
  if (c.wrong != 1) return std::nullopt;
  const std::int64_t i = c.wrong_indices.front();
  if (mask.dims.size() == 1 && i == c.size - 1 && mask.launched_threads >= c.size)
    if (const std::string index = describe_block_start_evidence(i, mask.launched_threads); !index.empty())
      return fmt::format("only the last element is wrong and {} (the call's largest launch had {} threads, one for "
                         "every element, {})", index, mask.launched_threads, grid_was_large_enough);
  if (mask.dims.size() == 1 && i == c.size - 1) return std::string("only the last element is wrong");
  if (mask.dims.size() == 1 && i == 0) return std::string("only the first element is wrong");
  return fmt::format("only the element at {} is wrong", where(mask, i));
}

/// True when one row or one column of a matrix holds more than half the wrong elements: a
/// broken edge or line, not a race, even if too few lines are wrong to list them.
bool concentrated(const Census& c, const MismatchMask& mask) {
  if (mask.dims.size() != 2 || c.wrong < 4) return false;
  const Grid g{mask.dims[0], mask.dims[1]};
  std::vector<std::int64_t> per_row(static_cast<std::size_t>(g.rows)), per_col(static_cast<std::size_t>(g.cols));
  for (auto i : c.wrong_indices) {
    ++per_row[static_cast<std::size_t>(g.row(i))];
    ++per_col[static_cast<std::size_t>(g.col(i))];
  }
  const auto most = std::max(*std::max_element(per_row.begin(), per_row.end()),
                             *std::max_element(per_col.begin(), per_col.end()));
  return 2 * most > c.wrong;
}

/// Few wrong elements with no shape to them: the signature of a race.
Line scattered(const Census& c, const MismatchMask& mask) {
  if (c.wrong < 2 || c.wrong * kScatteredFraction > c.size || concentrated(c, mask)) return std::nullopt;
  std::string detail;
  if (mask.largest_error_index >= 0)
    detail = fmt::format(" (largest error {} at {})", format_magnitude(mask.largest_error),
                         where(mask, mask.largest_error_index));
  else if (c.nonfinite == c.wrong)
    detail = fmt::format(" (all NaN or Inf, the first at {})", where(mask, c.wrong_indices.front()));
  // No cause: a race is named only where runs disagree (pipeline/schedule_race), never from a shape.
  return fmt::format("{} scattered elements are wrong{}", c.wrong, detail);
}

}  // namespace

std::string describe_mismatch_pattern(const MismatchMask& mask) {
  if (static_cast<std::int64_t>(mask.wrong.size()) != element_count(mask.dims))
    throw std::logic_error("describe_mismatch_pattern: mask size does not match its dims");
  const Census c = take_census(mask);
  if (c.wrong == 0) return "";
  const std::string held = never_written(c);
  if (c.wrong == c.size && !held.empty())
    return c.size == 1 ? "the only element " + never_written(c, true) : "every element " + never_written(c, true);
  // Memory-wide flat suffix (any shape): the copy that was given elements for bytes.
  if (mask.dims.size() != 1 && c.output_fill == c.wrong && mask.element_bytes > 1 &&
      c.wrong_indices.front() == c.size / mask.element_bytes && c.wrong == c.size - c.wrong_indices.front())
    return fmt::format("only the first {} elements in memory order were written, and the rest {}: {} = {} / {}, "
                       "as if a cudaMemcpy or cudaMemset was given the number of elements where it takes bytes",
                       c.wrong_indices.front(), held, c.wrong_indices.front(), c.size, mask.element_bytes);
  if (c.output_partial == c.wrong)
    return fmt::format("{} partly written: {} last bytes still hold the value cugrade filled the output with (a "
                       "copy given fewer bytes than the elements have: a count in elements, not in bytes?)",
                       c.wrong == 1 ? "the only wrong element was" : fmt::format("{} elements were", c.wrong),
                       c.wrong == 1 ? "its" : "their");
  if (c.nonfinite == c.size)
    return "every element is NaN or Inf, computed by your code (no fill value of cugrade's): a division by zero, "
           "arithmetic on NaN or Inf, a read of __shared__ memory no thread wrote (cugrade starts it as NaN), or a sum "
           "added into the output with += where it was never zeroed (cugrade fills outputs with NaN before the call, "
           "and a GPU's arithmetic does not keep which NaN)?";
  if (c.wrong == c.size) return c.size == 1 ? "the only element is wrong" : "every element is wrong";
  Line shaped = single_element(c, mask);
  if (!shaped && mask.dims.size() == 2) shaped = matrix_pattern(c, Grid{mask.dims[0], mask.dims[1]});
  else if (!shaped && mask.dims.size() == 1) shaped = vector_pattern(c, mask);
  // A region no thread stored to (it still holds a fill): where it is says which, the fill that
  // nobody wrote it; the suffix line says so itself.
  const bool untouched = c.output_fill == c.wrong || c.device_fill == c.wrong;
  const bool says_fill = shaped && (shaped->find("filled the output") != std::string::npos ||
                                    shaped->find("fresh cudaMalloc") != std::string::npos);
  const bool names_index = shaped && shaped->find(index_is_wrong) != std::string::npos;
  if (shaped && untouched && !says_fill && !names_index)
    return fmt::format("{}; {} {} — no thread stored there: is the grid too small to reach {}, or a bounds check "
                       "too strict?",
                       *shaped, c.wrong == 1 ? "it" : "they", never_written(c, c.wrong == 1), c.wrong == 1 ? "it" : "them");
  if (shaped) return *shaped;
  if (auto line = scattered(c, mask)) return *line;
  if (!held.empty()) return fmt::format("{} of {} elements {}", c.wrong, c.size, held);
  if (c.nonfinite == c.wrong) return fmt::format("{} of {} elements are NaN or Inf", c.wrong, c.size);
  return fmt::format("{} of {} elements are wrong", c.wrong, c.size);
}

}  // namespace cugrade
