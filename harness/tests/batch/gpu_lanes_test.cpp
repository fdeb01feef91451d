// The lanes of a batch: named as CUDA_VISIBLE_DEVICES must name each GPU, each lane's checks on its
// own GPU, with its own timing baselines.
#include "batch/gpu_lanes.hpp"

#include <doctest/doctest.h>

#include "device/device_info.hpp"
#include "run/baseline_cache.hpp"

using namespace cugrade;

TEST_CASE("batch::gpu_lanes_for") {
  CHECK(gpu_lanes_for(0, nullptr).empty());
  CHECK(gpu_lanes_for(2, nullptr) == std::vector<std::string>{"0", "1"});
  CHECK(gpu_lanes_for(2, "") == std::vector<std::string>{"0", "1"});
  CHECK(gpu_lanes_for(2, "3,5") == std::vector<std::string>{"3", "5"});
  CHECK(gpu_lanes_for(1, "GPU-8f2c,GPU-11aa") == std::vector<std::string>{"GPU-8f2c"});
}

TEST_CASE("batch::options_on_gpu") {
  // A probe that saw two GPUs, as on a two-GPU node: no GPU is needed to see which baseline each
  // lane's check would take and find.
  const auto probe = parse_probe_output(R"({"device_count":2,"name":"Some GPU","compute_capability":"9.0"})");
  REQUIRE(probe.has_value());
  CheckOptions base;
  base.runner_environment["CUGRADE_SOMETHING"] = "kept";

  SUBCASE("a check on GPU i sees GPU i alone and times on its CPUs") {
    const auto lanes = gpu_lanes_for(probe->device_count, "2,3");
    const CheckOptions second = options_on_gpu(base, lanes, 1);
    CHECK(second.runner_environment.at("CUDA_VISIBLE_DEVICES") == "3");
    CHECK(second.runner_environment.at("CUGRADE_SOMETHING") == "kept");
    CHECK(second.lane == 1);
    CHECK(second.lanes == 2);
  }
  SUBCASE("one GPU's baseline is never found by a student on the other") {
    const auto lanes = gpu_lanes_for(probe->device_count, nullptr);
    TimeTask task;
    task.id = "perf/tiled";
    task.step = "tiled";
    task.reference_step = "tiled";
    task.params = {{"M", 4096}, {"N", 4096}, {"K", 4096}};
    task.inputs_file = "timing-0.in";
    BaselineCache cache;
    const auto key_on = [&](std::size_t gpu) {
      return baseline_key("/build/reference-runner", options_on_gpu(base, lanes, gpu).runner_environment, task);
    };
    cache.store(key_on(0), {1.0, 1.1});  // GPU 0's lane took its baselines
    CHECK(cache.find(key_on(0)).has_value());
    CHECK_FALSE(cache.find(key_on(1)).has_value());  // GPU 1's student waits for GPU 1's own
  }
  SUBCASE("without GPU lanes (the CPU backend) the environment names no GPU") {
    const CheckOptions cpu = options_on_gpu(base, {}, 0);
    CHECK_FALSE(cpu.runner_environment.contains("CUDA_VISIBLE_DEVICES"));
    CHECK(cpu.lanes == 1);
  }
}
