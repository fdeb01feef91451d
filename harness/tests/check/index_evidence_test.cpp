// Which elements are wrong in index terms (harness/src/check/index_evidence.cpp): the gold's own
// values at the places a wrong stride or a wrong block start puts them.
#include "check/index_evidence.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace cugrade;

namespace {

/// A rows×cols f32 matrix whose elements are all different (as the generators' random values are).
Array distinct(std::int64_t rows, std::int64_t cols) {
  Array a = make_array(DType::f32, {rows, cols});
  for (std::int64_t i = 0; i < a.size(); ++i) a.data<float>()[i] = 0.5f + static_cast<float>(i) * 0.25f;
  return a;
}

/// What a kernel that stores element (i, j) of `gold` at i·row + j·col leaves (later stores
/// win), the rest NaN as the runner's fill; stores past the end are dropped.
Array stored(const Array& gold, std::int64_t row, std::int64_t col) {
  Array out = gold;
  for (std::int64_t p = 0; p < out.size(); ++p) out.data<float>()[p] = std::numeric_limits<float>::quiet_NaN();
  const std::int64_t rows = gold.dims[0], cols = gold.dims[1];
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (const std::int64_t p = i * row + j * col; p < out.size())
        out.data<float>()[p] = gold.data<float>()[i * cols + j];
  return out;
}

}  // namespace

TEST_CASE("check::describe_stride_evidence") {
  const Tolerance exact{0.0, 0.0, ""};
  SUBCASE("rows taken the number of rows apart (a transpose writing out[x·cols + y]): overlap and the rest unreached") {
    const Array gold = distinct(7, 100);
    const std::string words = describe_stride_evidence(stored(gold, 7, 1), gold, exact);
    CHECK(words.starts_with("the right values are at the wrong places: element (i, j) was stored at index i·7 + j "
                            "instead of i·100 + j — the index is wrong: its rows are taken 7 apart, where a row of "
                            "this 7×100 output is 100 long (7 is its number of rows: the other dimension); so "
                            "several elements are stored at one index"));
    CHECK(words.ends_with("558 places are never stored to and keep what they held before"));
  }
  SUBCASE("whichever colliding element stays, the index is found (here the first column is lost everywhere)") {
    const Array gold = distinct(12, 40);
    Array out = stored(gold, 12, 1);
    // The rows before win instead: element (i, 0) is overwritten by (i − 1, 12) wherever they meet.
    for (std::int64_t i = 1; i < 12; ++i)
      if (const std::int64_t p = i * 12; p < out.size()) out.data<float>()[p] = gold.data<float>()[(i - 1) * 40 + 12];
    CHECK(describe_stride_evidence(out, gold, exact).find("stored at index i·12 + j instead of i·40 + j") !=
          std::string::npos);
  }
  SUBCASE("rows taken a third size apart (matmul's C[Row·K + Col]): no overlap, gaps between rows") {
    const Array gold = distinct(4, 6);
    const std::string words = describe_stride_evidence(stored(gold, 7, 1), gold, exact);
    CHECK(words.find("i·7 + j instead of i·6 + j") != std::string::npos);
    CHECK(words.find(stores_collide) == std::string::npos);
    CHECK(words.find("other dimension") == std::string::npos);
  }
  SUBCASE("row and column swapped, the columns taken the row length apart (C[Col·N + Row])") {
    const Array gold = distinct(5, 3);
    CHECK(describe_stride_evidence(stored(gold, 1, 3), gold, exact)
              .starts_with("the right values are at the wrong places: element (i, j) was stored at index j·3 + i "
                           "instead of i·3 + j — the index is wrong: row and column are swapped"));
  }
  SUBCASE("no index explains it: a wrong value among the right places, a shifted copy, a right output") {
    const Array gold = distinct(6, 8);
    Array one_wrong = gold;
    one_wrong.data<float>()[13] = -1.0f;
    CHECK(describe_stride_evidence(one_wrong, gold, exact) == "");
    Array noise = stored(gold, 6, 1);
    noise.data<float>()[6 + 3] = 99.0f;  // (1, 3)'s place holds nothing sent there
    CHECK(describe_stride_evidence(noise, gold, exact) == "");
    CHECK(describe_stride_evidence(gold, gold, exact) == "");
    CHECK(describe_stride_evidence(distinct(1, 8), distinct(1, 8), exact) == "");  // one row: no row stride
  }
}

TEST_CASE("check::describe_block_start_evidence") {
  SUBCASE("blockIdx.x + threadIdx.x: 4 blocks of 256 reach index 258") {
    CHECK(describe_block_start_evidence(259, 1024) ==
          "the index is wrong: 259 = 4 + 256 − 1 is the first index blockIdx.x + threadIdx.x never reaches with 4 "
          "blocks of 256 threads — block b must start at b·blockDim.x (blockIdx.x * blockDim.x + threadIdx.x); "
          "without the factor blockDim.x the blocks overlap");
    CHECK(describe_block_start_evidence(4352, 1048832).starts_with("the index is wrong: 4352 = 4097 + 256 − 1"));
  }
  SUBCASE("blockIdx.x * gridDim.x + threadIdx.x: 4 blocks of 256 reach index 267") {
    CHECK(describe_block_start_evidence(268, 1024).find("268 = (4 − 1)·4 + 256 is the first index blockIdx.x * "
                                                        "gridDim.x + threadIdx.x never reaches") != std::string::npos);
  }
  SUBCASE("threadIdx.x alone: every block stores to the first 256") {
    CHECK(describe_block_start_evidence(256, 1024) ==
          "the index is wrong: 256 is one block's threads, and 4 blocks of 256 threads stored to no element past it "
          "— every block stores to the same elements: the index leaves out the block's start (blockIdx.x * "
          "blockDim.x + threadIdx.x, not threadIdx.x alone)");
  }
  SUBCASE("anything else: nothing said (a grid stopped at a block, one block)") {
    CHECK(describe_block_start_evidence(768, 1024) == "");
    CHECK(describe_block_start_evidence(256, 256) == "");
  }
}
