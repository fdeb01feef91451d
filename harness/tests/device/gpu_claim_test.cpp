// One GPU, one cugrade at a time: the claim waits for another holder, queues fairly, and refuses
// a lock file it cannot trust. Each claim opens its own lock files, so two claims in one process
// exclude each other as two processes do.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "device/gpu_claim.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST_CASE("device::gpu_claim_key") {
  DeviceInfo device;
  device.device_count = 2;
  device.uuids = {"GPU-aaaa", "GPU-bbbb"};
  CHECK(gpu_claim_key(device, 1, "1") == "GPU-bbbb");
  CHECK(gpu_claim_key(device, 2, "GPU-cccc") == "device-GPU-cccc");  // beyond what the probe said
  CHECK(gpu_claim_key(DeviceInfo{}, 0, "0") == "device-0");
}

TEST_CASE("device::GpuClaim") {
  test::TempDir dir("gpu-claim");
  SUBCASE("a second claim of one GPU waits for the first, says so once, and another GPU's does not") {
    auto first = GpuClaim::acquire("GPU-1", {}, dir.path);
    REQUIRE(first.has_value());
    CHECK(first->waited_s() < 1.0);
    std::atomic<int> told = 0;
    auto other_gpu = GpuClaim::acquire("GPU-2", [&] { ++told; }, dir.path);
    REQUIRE(other_gpu.has_value());
    CHECK(told == 0);
    std::atomic<bool> got = false;
    double waited = 0.0;
    std::thread second([&] {
      auto claim = GpuClaim::acquire("GPU-1", [&] { ++told; }, dir.path);
      REQUIRE(claim.has_value());
      waited = claim->waited_s();
      got = true;
    });
    while (told == 0) std::this_thread::sleep_for(5ms);  // it says it waits
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(got.load());  // still held by the first
    { auto released = std::move(*first); }
    second.join();
    CHECK(got.load());
    CHECK(waited >= 0.15);
    CHECK(told == 1);
  }
  SUBCASE("a wait that is given up ends at once with a claim that holds nothing; the holder keeps it") {
    auto first = GpuClaim::acquire("GPU-1", {}, dir.path);
    REQUIRE(first.has_value());
    CHECK(first->held());
    std::atomic<bool> stop = false;
    std::atomic<int> told = 0;
    std::optional<Result<GpuClaim>> second;
    std::thread waiter([&] { second = GpuClaim::acquire("GPU-1", [&] { ++told; }, dir.path, [&] { return stop.load(); }); });
    while (told == 0) std::this_thread::sleep_for(5ms);  // it waits
    std::this_thread::sleep_for(100ms);
    stop = true;
    waiter.join();  // within a poll, while the first still holds the GPU
    REQUIRE(second.has_value());
    REQUIRE(second->has_value());
    CHECK_FALSE((*second)->held());
    CHECK(first->held());
    // The queue is free again: the next claim gets the GPU once the holder lets it go.
    { auto released = std::move(*first); }
    auto third = GpuClaim::acquire("GPU-1", {}, dir.path, [] { return false; });
    REQUIRE(third.has_value());
    CHECK(third->held());
  }
  SUBCASE("a holder back for its next turn waits behind the one already waiting") {
    std::mutex order_mutex;
    std::vector<std::string> order;
    auto holder = std::make_unique<GpuClaim>(*GpuClaim::acquire("GPU-1", {}, dir.path));
    std::atomic<bool> waiting = false;
    std::thread other([&] {
      auto claim = GpuClaim::acquire("GPU-1", [&] { waiting = true; }, dir.path);
      REQUIRE(claim.has_value());
      std::lock_guard lock(order_mutex);
      order.push_back("other");
    });
    while (!waiting) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(100ms);  // the other is now queued and waiting for the GPU
    holder.reset();
    auto again = GpuClaim::acquire("GPU-1", {}, dir.path);  // the holder's next turn
    REQUIRE(again.has_value());
    {
      std::lock_guard lock(order_mutex);
      order.push_back("holder again");
    }
    other.join();
    CHECK(order == std::vector<std::string>{"other", "holder again"});
  }
  SUBCASE("the lock files are readable by every user, whatever the umask") {
    const mode_t old = ::umask(077);
    auto claim = GpuClaim::acquire("GPU-1", {}, dir.path);
    ::umask(old);
    REQUIRE(claim.has_value());
    CHECK((fs::status(dir.path / "cugrade-gpu-GPU-1.lock").permissions() & fs::perms::others_read) != fs::perms::none);
  }
  SUBCASE("a key's odd characters stay out of the file name") {
    auto claim = GpuClaim::acquire("../x y", {}, dir.path);
    REQUIRE(claim.has_value());
    CHECK(fs::exists(dir.path / "cugrade-gpu-.._x_y.lock"));
  }
  SUBCASE("a link planted where the lock file goes is refused, not followed") {
    fs::create_symlink(dir.path / "elsewhere", dir.path / "cugrade-gpu-GPU-1.lock");
    const auto claim = GpuClaim::acquire("GPU-1", {}, dir.path);
    REQUIRE_FALSE(claim.has_value());
    CHECK(claim.error().message.find("cannot open the GPU's lock file") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "elsewhere"));
  }
  SUBCASE("a folder that does not exist is an error, not a wait") {
    const auto claim = GpuClaim::acquire("GPU-1", {}, dir.path / "missing");
    REQUIRE_FALSE(claim.has_value());
  }
}

TEST_CASE("device::gpu_claimed_elsewhere") {
  test::TempDir dir("gpu-claim");
  auto never = gpu_claimed_elsewhere("GPU-1", dir.path);
  REQUIRE(never.has_value());
  CHECK_FALSE(*never);
  CHECK_FALSE(fs::exists(gpu_claim_file("GPU-1", dir.path)));  // looking makes no file
  {
    auto held = GpuClaim::acquire("GPU-1", {}, dir.path);
    REQUIRE(held.has_value());
    CHECK(gpu_claim_file("GPU-1", dir.path) == dir.path / "cugrade-gpu-GPU-1.lock");
    auto now = gpu_claimed_elsewhere("GPU-1", dir.path);
    REQUIRE(now.has_value());
    CHECK(*now);
  }
  auto after = gpu_claimed_elsewhere("GPU-1", dir.path);
  REQUIRE(after.has_value());
  CHECK_FALSE(*after);
  auto free_again = GpuClaim::acquire("GPU-1", {}, dir.path);  // looking left it free
  CHECK(free_again.has_value());
  fs::create_symlink(dir.path / "elsewhere", dir.path / "cugrade-gpu-GPU-2.lock");
  CHECK_FALSE(gpu_claimed_elsewhere("GPU-2", dir.path).has_value());
}

TEST_CASE("device::gpu_claim_holder") {
  test::TempDir dir("gpu-claim");
  CHECK(gpu_claim_holder("GPU-1", dir.path).empty());  // never claimed
  {
    auto held = GpuClaim::acquire("GPU-1", {}, dir.path);
    REQUIRE(held.has_value());
    const std::string holder = gpu_claim_holder("GPU-1", dir.path);
    CHECK(holder.starts_with("pid " + std::to_string(::getpid()) + ": "));  // this test, and its command line
    CHECK(holder.find("test_device") != std::string::npos);
  }
  CHECK(gpu_claim_holder("GPU-1", dir.path).empty());  // released
}

