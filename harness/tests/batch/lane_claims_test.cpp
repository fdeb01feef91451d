// A batch's lanes claimed against other cugrade processes (harness/src/batch/lane_claims.cpp): the
// first wait and a failed claim said once per lane, the seconds waited summed, nothing claimed
// where there is no GPU.
#include "batch/lane_claims.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
DeviceInfo two_gpus() {
  DeviceInfo device;
  device.device_count = 2;
  device.name = "NVIDIA H200";
  device.compute_capability = "9.0";
  device.uuids = {"GPU-aaaa", "GPU-bbbb"};
  return device;
}
}  // namespace

TEST_CASE("batch::LaneClaims") {
  test::TempDir dir("lane-claims");
  setenv("CUGRADE_LOCK_DIR", dir.path.c_str(), 1);
  std::vector<std::string> log;
  std::mutex log_mutex;
  const auto logged = [&](const std::string& line) {
    std::lock_guard lock(log_mutex);
    log.push_back(line);
  };
  SUBCASE("no GPU, or no such lane: nothing claimed, nothing said") {
    LaneClaims none(std::nullopt, {"0"}, logged);
    CHECK_FALSE(none.claim(0).has_value());
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged);
    CHECK_FALSE(lanes.claim(2).has_value());
    CHECK(log.empty());
    CHECK(fs::is_empty(dir.path));
  }
  SUBCASE("a lane waits for another cugrade: said once however often it waits, its seconds summed") {
    LaneClaims lanes(two_gpus(), {"3", "5"}, logged);
    for (int turn = 0; turn < 2; ++turn) {
      auto held = std::make_unique<GpuClaim>(*GpuClaim::acquire("GPU-bbbb", {}, dir.path));
      std::atomic<bool> got = false;
      std::thread lane([&] {
        CHECK(lanes.claim(1).has_value());
        got = true;
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      CHECK_FALSE(got.load());
      held.reset();
      lane.join();
    }
    CHECK(lanes.waited_s() > 0.0);  // both turns waited (each still waiting when the holder let go)
    REQUIRE(log.size() == 1);
    CHECK(log[0].starts_with("GPU 5 (NVIDIA H200) is in use by another cugrade on this machine (pid "));
    CHECK(log[0].ends_with("waiting for its turn (this batch takes turns with it, one submission at a time)"));
    CHECK(lanes.claim(0).has_value());  // the other GPU was free all along
  }
  SUBCASE("a claim that cannot be made: said once, and the batch goes on unclaimed") {
    setenv("CUGRADE_LOCK_DIR", (dir.path / "missing").c_str(), 1);
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged);
    CHECK_FALSE(lanes.claim(0).has_value());
    CHECK_FALSE(lanes.claim(0).has_value());
    REQUIRE(log.size() == 1);
    CHECK(log[0].starts_with("the GPU was not claimed against other cugrade processes (cannot open the GPU's lock file"));
  }
  unsetenv("CUGRADE_LOCK_DIR");
}
