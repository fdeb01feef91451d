#include <doctest/doctest.h>

#include "check/cross_case.hpp"
#include "check/index_evidence.hpp"
#include "check/pattern.hpp"

#include <string>

using namespace cugrade;

namespace {
CaseResult with(Params params, Outcome outcome) {
  CaseResult c;
  c.step = "tiled";
  c.params = std::move(params);
  c.outcome = outcome;
  return c;
}
constexpr Outcome ok = Outcome::passed;
constexpr Outcome bad = Outcome::wrong_answer;
}  // namespace

TEST_CASE("check::cross_case_pattern") {
  SUBCASE("nothing stands out when every case passed, or every one failed") {
    CHECK(cross_case_pattern({with({{"n", 100}}, ok), with({{"n", 1000}}, ok)}) == "");
    CHECK(cross_case_pattern({with({{"n", 100}}, bad), with({{"n", 1000}}, bad)}) == "");
    CHECK(cross_case_pattern({}) == "");
  }
  SUBCASE("wrong only at sizes that are not a multiple of 32") {
    CHECK(cross_case_pattern({with({{"M", 64}, {"N", 64}, {"K", 64}}, ok),
                              with({{"M", 65}, {"N", 33}, {"K", 47}}, bad),
                              with({{"M", 128}, {"N", 96}, {"K", 32}}, ok),
                              with({{"M", 96}, {"N", 31}, {"K", 64}}, bad)}) ==
          "wrong only at sizes that are not a multiple of 32");
  }
  SUBCASE("wrong only when one parameter is not a multiple of 32") {
    CHECK(cross_case_pattern({with({{"M", 64}, {"N", 64}, {"K", 64}}, ok),
                              with({{"M", 64}, {"N", 64}, {"K", 47}}, bad),
                              with({{"M", 32}, {"N", 32}, {"K", 32}}, ok),
                              with({{"M", 65}, {"N", 64}, {"K", 64}}, ok)}) ==
          "wrong only when K is not a multiple of 32");
    // The only parameter ever off the multiple is named, even if the general rule holds too.
    CHECK(cross_case_pattern({with({{"M", 64}, {"K", 64}}, ok), with({{"M", 64}, {"K", 32}}, ok),
                              with({{"M", 64}, {"K", 40}}, bad)}) ==
          "wrong only when K is not a multiple of 32");
  }
  SUBCASE("a block-size multiple for 1-D sizes") {
    CHECK(cross_case_pattern({with({{"n", 1056}}, bad), with({{"n", 1024}}, ok), with({{"n", 1088}}, ok)}) ==
          "wrong only when n is not a multiple of 64");
  }
  SUBCASE("the largest multiple the evidence allows: the block of 256, not 32") {
    // vecadd's sizes: those off 256 are off 32 as well, so 32 would fit too, and mislead.
    CHECK(cross_case_pattern({with({{"n", 1}}, bad), with({{"n", 255}}, bad), with({{"n", 256}}, ok),
                              with({{"n", 257}}, bad), with({{"n", 1000}}, bad), with({{"n", 1048576}}, ok)}) ==
          "wrong only when n is not a multiple of 256");
  }
  SUBCASE("four rows per thread: wrong only when M is not a multiple of 4") {
    CHECK(cross_case_pattern({with({{"M", 1}, {"N", 1}, {"K", 1}}, bad), with({{"M", 64}, {"N", 64}, {"K", 64}}, ok),
                              with({{"M", 65}, {"N", 33}, {"K", 47}}, bad), with({{"M", 300}, {"N", 1}, {"K", 64}}, ok),
                              with({{"M", 31}, {"N", 97}, {"K", 5}}, bad), with({{"M", 96}, {"N", 40}, {"K", 50}}, ok)}) ==
          "wrong only when M is not a multiple of 4");
    // Without a passing case off the multiples of 64, those fit the evidence as well, and the
    // largest multiple that fits is named.
    CHECK(cross_case_pattern({with({{"M", 1}, {"N", 1}, {"K", 1}}, bad), with({{"M", 64}, {"N", 64}, {"K", 64}}, ok),
                              with({{"M", 65}, {"N", 33}, {"K", 47}}, bad)}) ==
          "wrong only at sizes that are not a multiple of 64");
  }
  SUBCASE("wrong only at the largest sizes") {
    CHECK(cross_case_pattern({with({{"n", 1000}}, ok), with({{"n", 1024}}, ok),
                              with({{"n", 1 << 20}}, bad), with({{"n", 1 << 24}}, bad)}) ==
          "wrong only at the largest sizes (n=1048576 and up): does the grid cover the whole input?");
    // An int overflow is asked about only where the sizes reach 2^31.
    CHECK(cross_case_pattern({with({{"n", 1000}}, ok), with({{"n", 1024}}, ok), with({{"n", 1LL << 31}}, bad)}) ==
          "wrong only at the largest sizes (n=2147483648 and up): does the grid cover the whole input, and do "
          "the indices fit in an int?");
  }
  SUBCASE("wrong only at the largest sizes, where results change between runs: no question about the grid") {
    // reduction/block_sums_not_atomic on an H200: one block (n ≤ 512) has no one to race with.
    const std::vector<CaseResult> cases{with({{"n", 1}}, ok), with({{"n", 300}}, ok), with({{"n", 1000}}, bad),
                                        with({{"n", 65536}}, bad)};
    CHECK(cross_case_pattern(cases, true) ==
          "wrong only at the largest sizes (n=1000 and up), and results change between runs of the same inputs "
          "(each case says why)");
    CHECK(cross_case_pattern(cases, false).find("does the grid cover") != std::string::npos);
  }
  SUBCASE("wrong only at the largest sizes, where every failing case's launch had a thread for each element") {
    // The case's pattern says its grid was large enough (check/pattern.hpp): the grid is not asked about.
    const auto covered = [](std::int64_t n) {
      CaseResult c = with({{"n", n}}, bad);
      Comparison o;
      o.pattern = "elements from index 65536 on are wrong (...): the call's largest launch had " + std::to_string(n) +
                  " threads, one for every element, " + std::string(grid_was_large_enough) + ": ...";
      c.comparisons.push_back(o);
      return c;
    };
    CHECK(cross_case_pattern({with({{"n", 1000}}, ok), with({{"n", 1024}}, ok), covered(1 << 20), covered(1 << 24)}) ==
          "wrong only at the largest sizes (n=1048576 and up), though each launch had a thread for every element: "
          "does an index overflow there?");
    // One failing case without that evidence: the grid stays a question.
    CHECK(cross_case_pattern({with({{"n", 1000}}, ok), with({{"n", 1024}}, ok), covered(1 << 20),
                              with({{"n", 1 << 24}}, bad)}) ==
          "wrong only at the largest sizes (n=1048576 and up): does the grid cover the whole input?");
  }
  SUBCASE("wrong only at the largest sizes, each failing case named in index terms: no guess about the grid") {
    const auto named = [](std::int64_t n) {
      CaseResult c = with({{"n", n}}, bad);
      c.message = "your sum is what blocks of 128 threads give when block b's first index is b·blockDim.x: ...";
      return c;
    };
    CHECK(cross_case_pattern({with({{"n", 100}}, ok), with({{"n", 128}}, ok), named(1000), named(65536)}) == "");
    // One failing case not named: the grid is asked about.
    CHECK(cross_case_pattern({with({{"n", 100}}, ok), with({{"n", 128}}, ok), named(1000), with({{"n", 65536}}, bad)}) ==
          "wrong only at the largest sizes (n=1000 and up): does the grid cover the whole input?");
  }
  SUBCASE("wrong only at the largest sizes, each failing case's wrong index named: no question about an overflow") {
    // vecadd's i = blockIdx.x + threadIdx.x: a thread for every element, and the index named (index_evidence.hpp).
    const auto indexed = [](std::int64_t n) {
      CaseResult c = with({{"n", n}}, bad);
      Comparison o;
      o.pattern = "elements from index 259 on are wrong (...): the call's largest launch had 1024 threads, one for "
                  "every element, " + std::string(grid_was_large_enough) + ": 259 = 4 + 256 − 1: ... — " +
                  std::string(index_is_wrong) + ": ...";
      c.comparisons.push_back(o);
      return c;
    };
    CHECK(cross_case_pattern({with({{"n", 100}}, ok), with({{"n", 257}}, ok), indexed(1000), indexed(4097)}) == "");
  }
  SUBCASE("wrong only at the smallest sizes") {
    CHECK(cross_case_pattern({with({{"n", 96}}, bad), with({{"n", 1000}}, ok), with({{"n", 4096}}, ok)}) ==
          "wrong only at the smallest sizes (n=96 and below)");
  }
  SUBCASE("same size, different outcomes: a data-dependent bug (no race is claimed from this)") {
    CHECK(cross_case_pattern({with({{"n", 1000}}, ok), with({{"n", 1000}}, bad), with({{"n", 64}}, ok)}) ==
          "wrong at some seeds but right at others of the same size (n=1000): the result depends "
          "on the input values, not only on the size");
  }
  SUBCASE("cases that did not run are left out; a crash counts as failing") {
    CHECK(cross_case_pattern({with({{"n", 1000}}, Outcome::not_run), with({{"n", 1000}}, Outcome::crashed),
                              with({{"n", 1024}}, ok), with({{"n", 2048}}, Outcome::harness_error)}) ==
          "wrong only when n is not a multiple of 256");
  }
  SUBCASE("nothing stands out") {
    CHECK(cross_case_pattern({with({{"n", 1000}}, bad), with({{"n", 1024}}, ok), with({{"n", 4000}}, ok),
                              with({{"n", 4096}}, bad)}) == "");
  }
}
