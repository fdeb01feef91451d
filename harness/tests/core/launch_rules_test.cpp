// The launch rules both backends explain a refused launch with (runtime/launch_rules.hpp).
#include "launch_rules.hpp"

#include <doctest/doctest.h>

using cugrade::LaunchCeilings;
using cugrade::LaunchFault;
using cugrade::LaunchShape;

namespace {
LaunchShape shape(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  std::size_t shared = 0) {
  return LaunchShape{{gx, gy, gz}, {bx, by, bz}, shared};
}
}  // namespace

TEST_CASE("runtime::launch_fault") {
  const LaunchCeilings h100;
  CHECK(cugrade::launch_fault(shape(65535, 1, 1, 1024, 1, 1), h100) == LaunchFault::none);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 32, 32, 1), h100) == LaunchFault::none);
  CHECK(cugrade::launch_fault(shape(0, 1, 1, 32, 1, 1), h100) == LaunchFault::empty);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 0, 1, 1), h100) == LaunchFault::empty);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 2048, 1, 1), h100) == LaunchFault::too_many_threads);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 32, 33, 1), h100) == LaunchFault::too_many_threads);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 1, 1, 65), h100) == LaunchFault::block_dimension);
  CHECK(cugrade::launch_fault(shape(1, 65536, 1, 32, 1, 1), h100) == LaunchFault::grid_dimension);
  CHECK(cugrade::launch_fault(shape(1, 1, 1, 32, 1, 1, 49153), h100) == LaunchFault::shared_memory);
  SUBCASE("a kernel allowed more dynamic shared memory takes it") {
    LaunchCeilings raised;
    raised.max_dynamic_shared_bytes = 100 * 1024;
    CHECK(cugrade::launch_fault(shape(1, 1, 1, 32, 1, 1, 100 * 1024), raised) == LaunchFault::none);
  }
  SUBCASE("a block's threads are counted without overflow") {
    CHECK(cugrade::launch_fault(shape(1, 1, 1, 65536, 65536, 2), h100) == LaunchFault::too_many_threads);
  }
}

TEST_CASE("runtime::launch_fault_words") {
  const LaunchCeilings h100;
  CHECK(cugrade::launch_fault_words(shape(1, 1, 1, 1024, 1, 1), h100).empty());
  CHECK(cugrade::launch_fault_words(shape(1, 1, 1, 2048, 1, 1), h100) ==
        "2048 threads per block (2048x1x1); a block has at most 1024 threads");
  CHECK(cugrade::launch_fault_words(shape(1, 1, 1, 1, 1, 65), h100) == "blockDim.z = 65; the limit is 64");
  CHECK(cugrade::launch_fault_words(shape(1, 65536, 1, 32, 1, 1), h100) == "gridDim.y = 65536; the limit is 65535");
  CHECK(cugrade::launch_fault_words(shape(0, 1, 1, 32, 1, 1), h100) ==
        "grid 0x1x1 and block 32x1x1; no dimension may be 0");
  CHECK(cugrade::launch_fault_words(shape(1, 1, 1, 32, 1, 1, 49153), h100)
            .starts_with("49153 bytes of dynamic shared memory; the limit is 49152"));
  SUBCASE("the device's own ceiling is the one named") {
    LaunchCeilings small;
    small.max_threads_per_block = 512;
    CHECK(cugrade::launch_fault_words(shape(1, 1, 1, 768, 1, 1), small) ==
          "768 threads per block (768x1x1); a block has at most 512 threads");
  }
}
