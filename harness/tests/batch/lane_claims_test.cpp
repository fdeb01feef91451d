// A batch's lanes claimed against other cugrade processes (harness/src/batch/lane_claims.cpp): the
// first wait and a failed claim said once per GPU, the seconds waited summed, nothing claimed
// where there is no GPU; several lanes per GPU sharing it through turns and one claim; how many
// submissions share a GPU by default.
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
    CHECK_FALSE(none.claim(0));
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged);
    CHECK_FALSE(lanes.claim(2));
    CHECK(log.empty());
    CHECK(fs::is_empty(dir.path));
  }
  SUBCASE("a lane waits for another cugrade: said once however often it waits, its seconds summed") {
    LaneClaims lanes(two_gpus(), {"3", "5"}, logged);
    for (int turn = 0; turn < 2; ++turn) {
      auto held = std::make_unique<GpuClaim>(*GpuClaim::acquire("GPU-bbbb", {}, dir.path));
      std::atomic<bool> got = false;
      std::thread lane([&] {
        CHECK(lanes.claim(1));
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
    CHECK(lanes.claim(0));  // the other GPU was free all along
  }
  SUBCASE("a claim that cannot be made: said once, and the batch goes on unclaimed") {
    setenv("CUGRADE_LOCK_DIR", (dir.path / "missing").c_str(), 1);
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged);
    CHECK_FALSE(lanes.claim(0));
    CHECK_FALSE(lanes.claim(0));
    REQUIRE(log.size() == 1);
    CHECK(log[0].starts_with("the GPU was not claimed against other cugrade processes (cannot open the GPU's lock file"));
  }
  SUBCASE("lanes sharing a GPU: one claim while any of them holds it, their turns in common") {
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged, 3);
    CHECK(lanes.lanes() == 12);  // lanes_per_gpu(3) on each of two GPUs
    CHECK(lanes.gpu_of(5) == 0);
    CHECK(lanes.gpu_of(6) == 1);
    CHECK(lanes.turns_of(0) != nullptr);
    CHECK(lanes.turns_of(0) == lanes.turns_of(5));
    CHECK(lanes.turns_of(0) != lanes.turns_of(6));
    std::atomic<bool> got = false;
    std::thread other;
    {
      // Two lanes of GPU 0 at once: one claim (a second lock of the file from this process would
      // wait for the first forever), which the other GPU's lane does not share.
      const LaneClaim first = lanes.claim(0);
      const LaneClaim second = lanes.claim(5);
      REQUIRE(first);
      CHECK(first == second);
      CHECK(lanes.claim(6) != first);
      // Another process's claim waits while either lane holds it.
      other = std::thread([&] { got = GpuClaim::acquire("GPU-aaaa", {}, dir.path).has_value(); });
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      CHECK_FALSE(got.load());
    }
    other.join();  // both lanes let go: the other claim is had, and given back
    CHECK(got.load());
    CHECK(lanes.claim(1));  // claimed afresh
    CHECK(log.empty());  // no other cugrade process was waited for with a line of its own
  }
  SUBCASE("one lane per GPU: no turns to take") {
    LaneClaims lanes(two_gpus(), {"0", "1"}, logged);
    CHECK(lanes.lanes() == 2);
    CHECK(lanes.gpu_of(1) == 1);
    CHECK(lanes.turns_of(0) == nullptr);
  }
  unsetenv("CUGRADE_LOCK_DIR");
}

TEST_CASE("batch::lanes_per_gpu") {
  CHECK(lanes_per_gpu(0) == 1);
  CHECK(lanes_per_gpu(1) == 1);
  CHECK(lanes_per_gpu(4) == 8);
}

TEST_CASE("batch::default_grade_runs_per_gpu") {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  // The self-test's count by the cores: 3 per 8, at most 6.
  CHECK(default_grade_runs_per_gpu(16, 0, 4 * gib) == 6);
  CHECK(default_grade_runs_per_gpu(8, 0, 4 * gib) == 3);
  CHECK(default_grade_runs_per_gpu(2, 0, 4 * gib) == 1);
  // An H200's 141 GB holds six submissions of four 4 GiB runners (each counted with 1 GiB of
  // context), an H100's 80 GB three, a 16 GB card none, which is still one.
  CHECK(default_grade_runs_per_gpu(16, 150'000'000'000, 4 * gib) == 6);
  CHECK(default_grade_runs_per_gpu(16, 85'000'000'000, 4 * gib) == 3);
  CHECK(default_grade_runs_per_gpu(16, 16 * gib, 4 * gib) == 1);
  // A smaller limit lets more fit.
  CHECK(default_grade_runs_per_gpu(16, 85'000'000'000, 1 * gib) == 6);
}
