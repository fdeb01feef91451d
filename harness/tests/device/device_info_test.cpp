// Reading cugrade-probe's JSON: a GPU, no GPU, and output that is not the probe's.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "device/device_info.hpp"
#include "process/fake_process_runner.hpp"

using namespace cugrade;

namespace {
std::string data_file(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/device/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("device::parse_probe_output") {
  SUBCASE("a GPU: every field, as an H100 reports it") {
    const auto info = parse_probe_output(data_file("probe_h100.json"));
    REQUIRE(info.has_value());
    CHECK(info->present());
    CHECK(info->device_count == 1);
    CHECK(info->name == "NVIDIA H100 80GB HBM3");
    CHECK(info->compute_capability == "9.0");
    CHECK(info->sm_count == 132);
    CHECK(info->total_global_mem == 85017493504);
    CHECK(info->shared_mem_per_block == 49152);
    CHECK(info->shared_mem_per_block_optin == 232448);
    CHECK(info->l2_cache_size == 52428800);
    CHECK(info->max_threads_per_block == 1024);
    CHECK(info->warp_size == 32);
    CHECK(info->clock_rate_khz == 1980000);
    CHECK(info->memory_clock_rate_khz == 2619000);
    CHECK(info->memory_bus_width == 5120);
    CHECK(info->driver_version == "13.0");
    CHECK(info->runtime_version == "13.0");
    CHECK(info->error.empty());
  }
  SUBCASE("no device: not present, and the reason is kept for the message") {
    const auto info = parse_probe_output(data_file("probe_no_driver.json"));
    REQUIRE(info.has_value());
    CHECK_FALSE(info->present());
    CHECK(info->error == "CUDA driver version is insufficient for CUDA runtime version");
    CHECK(info->arch().empty());
  }
  SUBCASE("clock rates are optional") {
    const auto info = parse_probe_output(
        R"({"device_count":2,"name":"Some GPU","compute_capability":"8.6"})");
    REQUIRE(info.has_value());
    CHECK(info->device_count == 2);
    CHECK(info->clock_rate_khz == 0);
    CHECK(info->uuids.empty());  // a probe of before the UUIDs: the claims fall back to the lane's name
  }
  SUBCASE("every visible GPU's UUID, in CUDA's order") {
    const auto info = parse_probe_output(
        R"({"device_count":2,"name":"Some GPU","compute_capability":"9.0",)"
        R"("uuids":["GPU-8f3a0c1e-1111-2222-3333-444455556666","GPU-00000000-1111-2222-3333-444455556667"]})");
    REQUIRE(info.has_value());
    CHECK(info->uuids == std::vector<std::string>{"GPU-8f3a0c1e-1111-2222-3333-444455556666",
                                                  "GPU-00000000-1111-2222-3333-444455556667"});
  }
  SUBCASE("malformed output fails with a message quoting it") {
    const auto info = parse_probe_output("Segmentation fault\nmore");
    REQUIRE_FALSE(info.has_value());
    CHECK(info.error().message ==
          "the GPU probe printed something unexpected: \"Segmentation fault\"; rebuild cugrade "
          "so that cugrade-probe matches it");
    CHECK_FALSE(parse_probe_output("[1,2]").has_value());
    CHECK_FALSE(parse_probe_output(R"({"device_count":"one"})").has_value());
  }
  SUBCASE("a GPU without a name or compute capability is refused") {
    const auto info = parse_probe_output(R"({"device_count":1})");
    REQUIRE_FALSE(info.has_value());
    CHECK(info.error().message ==
          "the GPU probe found a GPU but did not say its name and compute capability");
  }
}

TEST_CASE("device::DeviceInfo::arch") {
  DeviceInfo info;
  info.device_count = 1;
  SUBCASE("major and minor digits joined") {
    info.compute_capability = "9.0";
    CHECK(info.arch() == "sm_90");
    info.compute_capability = "12.0";
    CHECK(info.arch() == "sm_120");
    info.compute_capability = "8.6";
    CHECK(info.arch() == "sm_86");
  }
  SUBCASE("empty when there is no GPU or the capability is not major.minor") {
    info.compute_capability = "9";
    CHECK(info.arch().empty());
    info.compute_capability = "x.0";
    CHECK(info.arch().empty());
    info.compute_capability = "9.0";
    info.device_count = 0;
    CHECK(info.arch().empty());
  }
}

TEST_CASE("device::probe_device") {
  FakeProcessRunner runner;
  SUBCASE("runs the probe binary and parses what it printed") {
    runner.expect([](const ProcessRequest&) { return fake_exit(0, data_file("probe_h100.json")); });
    const auto info = probe_device(runner, "/opt/cugrade/runners/cugrade-probe");
    REQUIRE(info.has_value());
    CHECK(info->arch() == "sm_90");
    REQUIRE(runner.requests().size() == 1);
    CHECK(runner.requests()[0].argv ==
          std::vector<std::string>{"/opt/cugrade/runners/cugrade-probe"});
  }
  SUBCASE("a probe that cannot start says how to get one") {
    const auto info = probe_device(runner, "cugrade-probe");  // no handler: not started
    REQUIRE_FALSE(info.has_value());
    CHECK(info.error().message.starts_with("cannot run the GPU probe (cugrade-probe): "));
    CHECK(info.error().message.ends_with(
        "; cugrade was perhaps built without CUDA (cmake -DCUGRADE_WITH_CUDA=ON)"));
  }
  SUBCASE("a probe that crashes is an error, not 'no GPU'") {
    runner.expect([](const ProcessRequest&) {
      ProcessResult result = fake_exit(-1);
      result.signal = 11;
      return result;
    });
    const auto info = probe_device(runner, "cugrade-probe");
    REQUIRE_FALSE(info.has_value());
    CHECK(info.error().message ==
          "the GPU probe was killed by signal 11; check the GPU with nvidia-smi");
  }
}

TEST_CASE("device::explain_probe_error") {
  const std::string insufficient = "CUDA driver version is insufficient for CUDA runtime version";
  const std::filesystem::path absent = "/nonexistent/proc/driver/nvidia/version";
  // Any file that exists stands for a loaded driver's version file.
  const std::filesystem::path present = std::string(CUGRADE_TEST_DATA) + "/device/probe_h100.json";
  SUBCASE("no kernel driver loaded: says so, and keeps CUDA's words") {
    CHECK(explain_probe_error(insufficient, absent) ==
          "no NVIDIA driver is loaded on this machine: there is no " + absent.string() + ", and CUDA says \"" +
              insufficient + "\"");
  }
  SUBCASE("a driver loaded but older than the runtime: CUDA's words are right as they are") {
    CHECK(explain_probe_error(insufficient, present) == insufficient);
  }
  SUBCASE("any other error is left as it is") {
    CHECK(explain_probe_error("no CUDA-capable device is detected", absent) == "no CUDA-capable device is detected");
  }
}

TEST_CASE("device::probe_device on a machine with no driver") {
  FakeProcessRunner runner;
  runner.expect([](const ProcessRequest&) { return fake_exit(0, data_file("probe_no_driver.json")); });
  const auto info = probe_device(runner, "cugrade-probe");
  REQUIRE(info.has_value());
  CHECK_FALSE(info->present());
  // This test's machine may have a driver; either way the runtime's own words stay in the message.
  CHECK(info->error.find("CUDA driver version is insufficient for CUDA runtime version") != std::string::npos);
  CHECK(info->error == explain_probe_error("CUDA driver version is insufficient for CUDA runtime version"));
}
