// Which GPUs a sandboxed step gets on a machine with several.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "process/sandbox.hpp"

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

/// Two H200s listed as the driver lists them, out of PCI order on disk.
std::vector<NvidiaGpu> two_h200() {
  return {{"0000:1b:00.0", "NVIDIA H200", "GPU-aaaa1111-0000", 0}, {"0000:43:00.0", "NVIDIA H200", "GPU-bbbb2222-0000", 3}};
}

}  // namespace

TEST_CASE("process::nvidia_gpus") {
  std::string pattern = (fs::temp_directory_path() / "cugrade-test-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  const fs::path dir = pattern;
  auto write = [&](const std::string& bus, const std::string& text) {
    fs::create_directories(dir / bus);
    std::ofstream(dir / bus / "information") << text;
  };
  write("0000:43:00.0", "Model: \t\t NVIDIA H200\nIRQ:  180\nGPU UUID: \t GPU-bbbb2222-0000\nDevice Minor: \t 1\n");
  write("0000:1b:00.0", "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-aaaa1111-0000\nDevice Minor: \t 0\n");
  write("0000:99:00.0", "Model: \t\t broken\n");  // no minor, no UUID: not a GPU we can bind
  const auto gpus = nvidia_gpus(dir);
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].bus == "0000:1b:00.0");
  CHECK(gpus[0].model == "NVIDIA H200");
  CHECK(gpus[0].uuid == "GPU-aaaa1111-0000");
  CHECK(gpus[0].minor == 0);
  CHECK(gpus[1].minor == 1);
  CHECK(nvidia_gpus(dir / "missing").empty());
  fs::remove_all(dir);
}

TEST_CASE("process::visible_gpus") {
  const auto gpus = two_h200();

  SUBCASE("an index of one model names the GPU in PCI order") {
    const auto chosen = visible_gpus(gpus, "1", false);
    REQUIRE(chosen);
    REQUIRE(chosen->size() == 1);
    CHECK((*chosen)[0].minor == 3);
    CHECK((*chosen)[0].uuid == "GPU-bbbb2222-0000");
  }
  SUBCASE("UUIDs and their unique prefixes, indices and UUIDs mixed") {
    const auto chosen = visible_gpus(gpus, "GPU-bbbb, 0", false);
    REQUIRE(chosen);
    REQUIRE(chosen->size() == 2);
    CHECK((*chosen)[0].minor == 3);
    CHECK((*chosen)[1].minor == 0);
  }
  SUBCASE("whatever it cannot be sure of leaves every GPU to the step") {
    CHECK_FALSE(visible_gpus(gpus, "", false));
    CHECK_FALSE(visible_gpus(gpus, "2", false));             // no such GPU: CUDA would see none
    CHECK_FALSE(visible_gpus(gpus, "GPU-", false));          // ambiguous prefix
    CHECK_FALSE(visible_gpus(gpus, "GPU-cccc", false));      // no such UUID
    CHECK_FALSE(visible_gpus(gpus, "MIG-1234", false));      // a MIG instance
    CHECK_FALSE(visible_gpus(gpus, "0,", false));            // CUDA stops at an empty entry
    CHECK_FALSE(visible_gpus({gpus[0]}, "0", false));        // one GPU: nothing to choose
    auto mixed = gpus;
    mixed[1].model = "NVIDIA H100 80GB HBM3";
    CHECK_FALSE(visible_gpus(mixed, "1", false));            // fastest first: maybe not PCI order
    CHECK(visible_gpus(mixed, "1", true));                   // CUDA_DEVICE_ORDER=PCI_BUS_ID
    CHECK(visible_gpus(mixed, "GPU-aaaa", false));           // a UUID needs no order
  }
}
