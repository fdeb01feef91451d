#include <doctest/doctest.h>

#include <stdexcept>

#include "check/pattern.hpp"

using namespace cugrade;

namespace {
/// A mask of the given shape with nothing wrong.
MismatchMask clean(std::vector<std::int64_t> dims) {
  MismatchMask m;
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  m.dims = std::move(dims);
  m.wrong.assign(static_cast<std::size_t>(n), false);
  m.nonfinite.assign(static_cast<std::size_t>(n), false);
  m.fill.assign(static_cast<std::size_t>(n), Fill::none);
  return m;
}

/// Marks every element of a rows×cols mask for which `pred(row, col)` holds as wrong.
template <class Pred>
MismatchMask matrix(std::int64_t rows, std::int64_t cols, Pred pred) {
  MismatchMask m = clean({rows, cols});
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      if (pred(r, c)) m.wrong[static_cast<std::size_t>(r * cols + c)] = true;
  return m;
}

template <class Pred>
MismatchMask vector(std::int64_t n, Pred pred) {
  MismatchMask m = clean({n});
  for (std::int64_t i = 0; i < n; ++i)
    if (pred(i)) m.wrong[static_cast<std::size_t>(i)] = true;
  return m;
}
}  // namespace

TEST_CASE("check::describe_mismatch_pattern") {
  SUBCASE("nothing wrong: no line") {
    CHECK(describe_mismatch_pattern(clean({4, 4})) == "");
  }
  SUBCASE("never written only where the output still holds the fill") {
    MismatchMask m = matrix(2, 3, [](auto, auto) { return true; });
    m.nonfinite.assign(6, true);
    m.fill.assign(6, Fill::output);
    CHECK(describe_mismatch_pattern(m) ==
          "every element still holds the value cugrade filled the output with before the call: never written (or "
          "the result was never copied back into it)");
    m.fill.assign(6, Fill::device);
    CHECK(describe_mismatch_pattern(m) ==
          "every element holds what fresh cudaMalloc memory holds on the CPU backend: copied from device memory no "
          "kernel wrote");
    m.fill.assign(6, Fill::output_added);
    CHECK(describe_mismatch_pattern(m) ==
          "every element is NaN from arithmetic on the value cugrade filled the output with: the code adds into "
          "the output (C += ...) instead of assigning it (C = ...), and nothing zeroed it first");
    m.fill.assign(6, Fill::device_added);
    CHECK(describe_mismatch_pattern(m).starts_with("every element is NaN from arithmetic on fresh cudaMalloc memory"));
    // NaN the code computed (0/0, ∞·0): no fill, so no "never written".
    m.fill.assign(6, Fill::none);
    CHECK(describe_mismatch_pattern(m) ==
          "every element is NaN or Inf, computed by your code (no fill value of cugrade's): a division by zero, "
          "arithmetic on NaN or Inf, a read of __shared__ memory no thread wrote (cugrade starts it as NaN), or a sum "
          "added into the output with += where it was never zeroed (cugrade fills outputs with NaN before the call, and "
          "a GPU's arithmetic does not keep which NaN)?");
  }
  SUBCASE("every element wrong") {
    CHECK(describe_mismatch_pattern(matrix(2, 3, [](auto, auto) { return true; })) ==
          "every element is wrong");
    CHECK(describe_mismatch_pattern(vector(1, [](auto) { return true; })) == "the only element is wrong");
  }
  SUBCASE("last partial tile, both edges") {
    auto m = matrix(65, 33, [](auto r, auto c) { return r >= 64 || c >= 32; });
    CHECK(describe_mismatch_pattern(m) ==
          "only the last partial tile is wrong: rows ≥ 64 or columns ≥ 32 (the matrix is 65×33; "
          "check the bounds of partial tiles)");
  }
  SUBCASE("last partial tile, bottom edge only") {
    auto m = matrix(65, 64, [](auto r, auto) { return r == 64; });
    CHECK(describe_mismatch_pattern(m) ==
          "only the last partial tile is wrong: rows ≥ 64 (the matrix is 65×64; check the bounds "
          "of partial tiles)");
  }
  SUBCASE("last partial tile, corner only") {
    auto m = matrix(65, 33, [](auto r, auto c) { return r >= 64 && c >= 32; });
    // A single corner element is reported as that element (more specific still).
    CHECK(describe_mismatch_pattern(m) == "only the element at (row 64, col 32) is wrong");
    auto two = matrix(70, 40, [](auto r, auto c) { return r >= 68 && c >= 32; });
    CHECK(describe_mismatch_pattern(two) ==
          "only the last partial tile is wrong: rows ≥ 68 and columns ≥ 32 (the matrix is 70×40; "
          "check the bounds of partial tiles)");
  }
  SUBCASE("a matrix smaller than 32 uses 16-wide tiles") {
    auto m = matrix(20, 20, [](auto r, auto c) { return r >= 16 || c >= 16; });
    CHECK(describe_mismatch_pattern(m) ==
          "only the last partial tile is wrong: rows ≥ 16 or columns ≥ 16 (the matrix is 20×20; "
          "check the bounds of partial tiles)");
  }
  SUBCASE("part of the last partial tile: the rows that are wrong, not the tile's first") {
    // A coarsened kernel that never writes its fourth row of each 32: rows 24–30 of 31.
    auto m = matrix(31, 97, [](auto r, auto) { return r >= 24; });
    CHECK(describe_mismatch_pattern(m) ==
          "only the last partial tile is wrong: rows ≥ 24 (the matrix is 31×97; check the bounds of partial tiles)");
  }
  SUBCASE("wrong inside the full tiles too: not a partial-tile problem") {
    auto m = matrix(65, 33, [](auto r, auto c) { return r >= 64 || c >= 32 || (r == 3 && c == 3); });
    CHECK(describe_mismatch_pattern(m) == "98 of 2145 elements are wrong");
  }
  SUBCASE("one tile") {
    auto m = matrix(64, 64, [](auto r, auto c) { return r >= 32 && c < 32; });
    CHECK(describe_mismatch_pattern(m) == "only one 32×32 tile is wrong: rows 32–63, columns 0–31");
  }
  SUBCASE("one row block, one column block") {
    CHECK(describe_mismatch_pattern(matrix(96, 64, [](auto r, auto) { return r >= 32 && r < 64; })) ==
          "only row block 1 (rows 32–63) is wrong");
    CHECK(describe_mismatch_pattern(matrix(64, 96, [](auto, auto c) { return c >= 32 && c < 64; })) ==
          "only column block 1 (columns 32–63) is wrong");
    // Half of a block: those rows, not the block (rows 16–23 are right).
    CHECK(describe_mismatch_pattern(matrix(32, 32, [](auto r, auto) { return r >= 24; })) == "only rows 24–31 are wrong");
  }
  SUBCASE("a few rows, a few columns") {
    CHECK(describe_mismatch_pattern(matrix(64, 64, [](auto r, auto) { return r == 3 || r == 17; })) ==
          "only rows 3, 17 are wrong");
    CHECK(describe_mismatch_pattern(matrix(64, 64, [](auto r, auto) { return r == 5; })) ==
          "only row 5 is wrong");
    CHECK(describe_mismatch_pattern(matrix(64, 64, [](auto, auto c) { return c == 2 || c == 40; })) ==
          "only columns 2, 40 are wrong");
  }
  SUBCASE("last row of a matrix with full tiles") {
    CHECK(describe_mismatch_pattern(matrix(64, 64, [](auto r, auto) { return r == 63; })) ==
          "only row 63 is wrong");
  }
  SUBCASE("a single element") {
    CHECK(describe_mismatch_pattern(matrix(64, 64, [](auto r, auto c) { return r == 5 && c == 9; })) ==
          "only the element at (row 5, col 9) is wrong");
    CHECK(describe_mismatch_pattern(vector(100, [](auto i) { return i == 99; })) ==
          "only the last element is wrong");
    CHECK(describe_mismatch_pattern(vector(100, [](auto i) { return i == 0; })) ==
          "only the first element is wrong");
    CHECK(describe_mismatch_pattern(vector(100, [](auto i) { return i == 42; })) ==
          "only the element at index 42 is wrong");
  }
  SUBCASE("1-D: a right prefix and a wrong suffix") {
    CHECK(describe_mismatch_pattern(vector(1000, [](auto i) { return i >= 768; })) ==
          "elements from index 768 on are wrong (the first 768 = 3 × 256 are right): too few "
          "blocks launched, or blocks that overlap (does each block start at blockIdx.x * blockDim.x)?");
    CHECK(describe_mismatch_pattern(vector(1000, [](auto i) { return i >= 384; })) ==
          "elements from index 384 on are wrong (the first 384 = 3 × 128 are right): too few "
          "blocks launched, or blocks that overlap (does each block start at blockIdx.x * blockDim.x)?");
    // No block multiple and no fill: no cause is named.
    CHECK(describe_mismatch_pattern(vector(1000, [](auto i) { return i >= 700; })) ==
          "elements from index 700 on are wrong (the first 700 are right)");
  }
  SUBCASE("1-D suffix: the fill tells a short copy from a short grid") {
    // cudaMemcpy(h_C, d_C, n, ...) for n floats: n/4 elements arrive, the rest keep the runner's fill.
    auto copied = vector(1000, [](auto i) { return i >= 250; });
    for (int i = 250; i < 1000; ++i) copied.fill[static_cast<std::size_t>(i)] = Fill::output;
    CHECK(describe_mismatch_pattern(copied) ==
          "elements from index 250 on are wrong (the first 250 are right) and still hold the value cugrade filled "
          "the output with before the call (never written, or never copied back): 250 = 1000 / 4, as if a "
          "cudaMemcpy or cudaMemset was given the number of elements where it takes bytes (n * sizeof(element))");
    // n = 1001: 1001 bytes end inside element 250, whose first byte arrived.
    auto odd = vector(1001, [](auto i) { return i >= 250; });
    for (int i = 250; i < 1001; ++i) odd.fill[static_cast<std::size_t>(i)] = i == 250 ? Fill::output_partial : Fill::output;
    CHECK(describe_mismatch_pattern(odd).find("250 = 1001 / 4, as if a cudaMemcpy") != std::string::npos);
    auto one = vector(1, [](auto) { return true; });
    one.fill[0] = Fill::output_partial;
    CHECK(describe_mismatch_pattern(one) ==
          "the only wrong element was partly written: its last bytes still hold the value cugrade filled the output "
          "with (a copy given fewer bytes than the elements have: a count in elements, not in bytes?)");
    // The same suffix in fresh device memory copied back: no kernel wrote it, and 256 is a block.
    auto grid = vector(1000, [](auto i) { return i >= 256; });
    for (int i = 256; i < 1000; ++i) grid.fill[static_cast<std::size_t>(i)] = Fill::device;
    CHECK(describe_mismatch_pattern(grid) ==
          "elements from index 256 on are wrong (the first 256 = 1 × 256 are right; the rest hold what fresh "
          "cudaMalloc memory holds on the CPU backend: copied from device memory no kernel wrote): too few blocks "
          "launched, or blocks that overlap (does each block start at blockIdx.x * blockDim.x)?");
    // A prefix of no block's size (i = threadIdx.x + blockIdx.x with 4 blocks of 256): the index
    // is as likely as the grid.
    auto overlap = vector(1000, [](auto i) { return i >= 259; });
    for (int i = 259; i < 1000; ++i) overlap.fill[static_cast<std::size_t>(i)] = Fill::output;
    CHECK(describe_mismatch_pattern(overlap).ends_with(
        "does the grid cover every element, and does each block start at blockIdx.x * blockDim.x?"));
    // Where a 16-bit index wraps, that is named as well.
    CHECK(describe_mismatch_pattern(vector(70000, [](auto i) { return i >= 65536; })) ==
          "elements from index 65536 on are wrong (the first 65536 = 256 × 256 are right): too few blocks "
          "launched (or a 16-bit index, which would overflow there), or blocks that overlap (does each block start "
          "at blockIdx.x * blockDim.x)?");
  }
  SUBCASE("1-D suffix: a launch with a thread for every element rules out a short grid") {
    // The runner counted the call's threads (the done event's): the grid covered all 70000.
    auto wrapped = vector(70000, [](auto i) { return i >= 65536; });
    for (int i = 65536; i < 70000; ++i) wrapped.fill[static_cast<std::size_t>(i)] = Fill::device;
    wrapped.launched_threads = 70144;
    CHECK(describe_mismatch_pattern(wrapped) ==
          "elements from index 65536 on are wrong (the first 65536 are right; the rest hold what fresh cudaMalloc "
          "memory holds on the CPU backend: copied from device memory no kernel wrote): the call's largest launch "
          "had 70144 threads, one for every element, so the grid was not too small: an index kept in 16 bits "
          "(unsigned short) overflows at 65536; keep indices in int");
    auto signed_wrap = vector(40000, [](auto i) { return i >= 32768; });
    signed_wrap.launched_threads = 40000;
    CHECK(describe_mismatch_pattern(signed_wrap).find("an index kept in 16 bits (short) overflows at 32768") !=
          std::string::npos);
    // Elsewhere: what is left of the causes, and still not the grid.
    auto short_index = vector(1000, [](auto i) { return i >= 768; });
    short_index.launched_threads = 1024;
    const std::string words = describe_mismatch_pattern(short_index);
    CHECK(words.find(grid_was_large_enough) != std::string::npos);
    CHECK(words.ends_with("do the blocks overlap (does each block start at blockIdx.x * blockDim.x?), or does an "
                          "index stop short of n?"));
    CHECK(words.find("too few blocks") == std::string::npos);
    // The last element alone, 2 blocks of 256 on the same first 256 (threadIdx.x alone): the index, not the grid.
    auto last_alone = vector(257, [](auto i) { return i == 256; });
    last_alone.fill[256] = Fill::device;
    last_alone.launched_threads = 512;
    const std::string last_words = describe_mismatch_pattern(last_alone);
    CHECK(last_words.starts_with("only the last element is wrong and the index is wrong: 256 is one block's threads"));
    CHECK(last_words.find("grid too small") == std::string::npos);
    // Where the first wrong index is where blocks that overlap stop, the index is named.
    auto overlapping = vector(1000, [](auto i) { return i >= 259; });
    overlapping.launched_threads = 1024;
    CHECK(describe_mismatch_pattern(overlapping) ==
          "elements from index 259 on are wrong and the index is wrong: 259 = 4 + 256 − 1 is the first index "
          "blockIdx.x + threadIdx.x never reaches with 4 blocks of 256 threads — block b must start at b·blockDim.x "
          "(blockIdx.x * blockDim.x + threadIdx.x); without the factor blockDim.x the blocks overlap (the first 259 "
          "are right; the call's largest launch had 1024 threads, one for every element, so the grid was not too "
          "small)");
    // Fewer threads than elements: the grid stays a suspect, as without the count.
    auto short_grid = vector(1000, [](auto i) { return i >= 768; });
    short_grid.launched_threads = 768;
    CHECK(describe_mismatch_pattern(short_grid).find("too few blocks launched") != std::string::npos);
  }
  SUBCASE("a shaped region no thread stored to: the grid or a bounds check") {
    auto m = matrix(65, 33, [](auto r, auto c) { return r >= 64 || c >= 32; });
    for (std::size_t i = 0; i < m.wrong.size(); ++i)
      if (m.wrong[i]) m.fill[i] = Fill::output;
    CHECK(describe_mismatch_pattern(m) ==
          "only the last partial tile is wrong: rows ≥ 64 or columns ≥ 32 (the matrix is 65×33; check the bounds "
          "of partial tiles); they still hold the value cugrade filled the output with before the call: never "
          "written (or the result was never copied back into it) — no thread stored there: is the grid too small "
          "to reach them, or a bounds check too strict?");
    auto last = vector(100, [](auto i) { return i == 99; });
    last.fill[99] = Fill::device;
    CHECK(describe_mismatch_pattern(last) ==
          "only the last element is wrong; it holds what fresh cudaMalloc memory holds on the CPU backend: copied "
          "from device memory no kernel wrote — no thread stored there: is the grid too small to reach it, or a "
          "bounds check too strict?");
  }
  SUBCASE("any shape: the first size/4 elements in memory order written, the rest the fill") {
    auto m = matrix(8, 8, [](auto r, auto) { return r >= 2; });
    for (int i = 16; i < 64; ++i) m.fill[static_cast<std::size_t>(i)] = Fill::output;
    CHECK(describe_mismatch_pattern(m).starts_with("only the first 16 elements in memory order were written"));
  }
  SUBCASE("1-D: only the last partial block") {
    CHECK(describe_mismatch_pattern(vector(1000, [](auto i) { return i == 800 || i == 900; })) ==
          "only the last partial block is wrong: indices ≥ 768 (n = 1000; check the bounds test "
          "in the last block)");
  }
  SUBCASE("1-D: a wrong prefix") {
    CHECK(describe_mismatch_pattern(vector(1000, [](auto i) { return i < 256; })) ==
          "only the first 256 elements are wrong (the last 744 are right)");
  }
  SUBCASE("1-D: every other element") {
    CHECK(describe_mismatch_pattern(vector(10, [](auto i) { return i % 2 == 1; })) ==
          "every other element is wrong (the odd indices)");
    CHECK(describe_mismatch_pattern(vector(9, [](auto i) { return i % 2 == 0; })) ==
          "every other element is wrong (the even indices)");
  }
  SUBCASE("sparse and irregular: counted, never called a race (only runs that disagree say that)") {
    auto m = matrix(64, 64, [](auto r, auto c) {
      return (r == 5 && c == 9) || (r == 40 && c == 2) || (r == 20 && c == 50);
    });
    m.largest_error = 3.1e-3;
    m.largest_error_index = 5 * 64 + 9;
    CHECK(describe_mismatch_pattern(m) == "3 scattered elements are wrong (largest error 3.1e-3 at (row 5, col 9))");
    auto v = vector(1000, [](auto i) { return i == 3 || i == 500 || i == 700; });
    v.largest_error = 0.25;
    v.largest_error_index = 500;
    CHECK(describe_mismatch_pattern(v) == "3 scattered elements are wrong (largest error 0.25 at index 500)");
    v.largest_error_index = -1;
    v.nonfinite[3] = v.nonfinite[500] = v.nonfinite[700] = true;
    CHECK(describe_mismatch_pattern(v) == "3 scattered elements are wrong (all NaN or Inf, the first at index 3)");
  }
  SUBCASE("sparse but concentrated in one line: not a race") {
    // Column 7 holds most wrong elements of this 64×64 matrix, too few to list as a column.
    auto m = matrix(64, 64, [](auto r, auto c) { return (c == 7 && r % 4 == 0) || (r == 1 && c == 50); });
    CHECK(describe_mismatch_pattern(m) == "17 of 4096 elements are wrong");
  }
  SUBCASE("fallback: a count") {
    auto m = vector(10, [](auto i) { return i == 1 || i == 2 || i == 5; });
    CHECK(describe_mismatch_pattern(m) == "3 of 10 elements are wrong");
    m.nonfinite[1] = m.nonfinite[2] = m.nonfinite[5] = true;
    CHECK(describe_mismatch_pattern(m) == "3 of 10 elements are NaN or Inf");
    m.fill[1] = m.fill[2] = m.fill[5] = Fill::output;
    CHECK(describe_mismatch_pattern(m) ==
          "3 of 10 elements still hold the value cugrade filled the output with before the call: never written (or "
          "the result was never copied back into it)");
  }
  SUBCASE("a mask that does not match its dims is a harness bug") {
    MismatchMask m = clean({4});
    m.dims = {5};
    CHECK_THROWS_AS(describe_mismatch_pattern(m), std::logic_error);
  }
}
