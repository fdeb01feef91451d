// The lanes of a batch: named as CUDA_VISIBLE_DEVICES must name each GPU.
#include "batch/gpu_lanes.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("batch::gpu_lanes_for") {
  CHECK(gpu_lanes_for(0, nullptr).empty());
  CHECK(gpu_lanes_for(2, nullptr) == std::vector<std::string>{"0", "1"});
  CHECK(gpu_lanes_for(2, "") == std::vector<std::string>{"0", "1"});
  CHECK(gpu_lanes_for(2, "3,5") == std::vector<std::string>{"3", "5"});
  CHECK(gpu_lanes_for(1, "GPU-8f2c,GPU-11aa") == std::vector<std::string>{"GPU-8f2c"});
}
