#include <doctest/doctest.h>

#include "timing/roofline.hpp"

using namespace cugrade;

TEST_CASE("timing::roofline_floor_ms") {
  const Ceilings h100{.copy_gbps = 3000.0, .sgemm_tflops = 50.0, .gpu = "H100"};
  SUBCASE("memory-bound work: bytes over the copy bandwidth") {
    CHECK(roofline_floor_ms(Work{3e9, 0.0, 0.0, "GB/s"}, h100) == doctest::Approx(1.0));
  }
  SUBCASE("the larger of the two bounds") {
    // 3e9 bytes: 1 ms; 1e11 flops at 50 TFLOP/s: 2 ms.
    CHECK(roofline_floor_ms(Work{3e9, 1e11, 0.0, "TFLOP/s"}, h100) == doctest::Approx(2.0));
  }
  SUBCASE("no ceilings, or a zero ceiling, contribute nothing") {
    CHECK(roofline_floor_ms(Work{3e9, 1e11, 0.0, ""}, std::nullopt) == 0.0);
    CHECK(roofline_floor_ms(Work{3e9, 1e11, 0.0, ""}, Ceilings{.copy_gbps = 3000.0}) ==
          doctest::Approx(1.0));
    CHECK(roofline_floor_ms(Work{3e9, 1e11, 0.0, ""}, Ceilings{}) == 0.0);
  }
}
