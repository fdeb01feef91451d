// The cooperative-groups subset (cugrade_cpu/cooperative_groups.hpp) gives CUDA's results.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "kernels/kernels.hpp"

TEST_CASE("cpu::cooperative groups") {
  const int block = 96, n = 250;  // 3 warp tiles per block; the last block only partly filled
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i % 7 - 3 + (i == 9 ? 50 : 0);
  const std::vector<int> out = cpu_test::cooperative_sums(in, block);
  REQUIRE(out.size() == 12);
  for (int b = 0; b < 3; ++b) {
    CAPTURE(b);
    int sum = 0;
    for (int i = b * block; i < std::min(n, (b + 1) * block); ++i) sum += in[i];
    SUBCASE("tile shuffles and meta_group_rank: a block sum") { CHECK(out[4 * b] == sum); }
    SUBCASE("cg::reduce with cg::plus over each tile") { CHECK(out[4 * b + 1] == sum); }
    SUBCASE("a dynamic tile: rank and size of the block's last thread") { CHECK(out[4 * b + 2] == 31 * 1000 + 32); }
    SUBCASE("tiles of 8 cut from a warp tile: max, shfl, any, all and meta_group_rank") {
      // Thread 8 is in the second tile of 8 (threads 8..15) of its warp tile.
      const int largest = *std::max_element(in.begin() + b * block + 8, in.begin() + b * block + 16);
      const bool negative = std::any_of(in.begin() + b * block + 8, in.begin() + b * block + 16,
                                        [](int v) { return v < 0; });
      CHECK(out[4 * b + 3] == largest * 10 + (negative ? 2 : 0) + 1 + 100000);
    }
  }
}
