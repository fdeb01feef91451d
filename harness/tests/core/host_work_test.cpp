// The runner's evidence that a call's result is not a kernel's work (runtime/host_work.hpp),
// fed the copies the wraps of both backends report.
#include "host_work.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace cugrade;
using namespace cugrade::runner;

namespace {

/// A copy the way a wrap reports it: done first, then noted.
void copy(void* dst, const void* src, std::size_t bytes, bool dst_on_device, bool src_on_device) {
  std::memcpy(dst, src, bytes);
  note_copy(dst, src, bytes, dst_on_device, src_on_device);
}

}  // namespace

TEST_CASE("runtime::host_work_evidence") {
  std::vector<float> output(64, -1.0f), device_scratch(64, 0.0f), host(64, 2.0f), kernel_result(64, 3.0f);
  const std::vector<WatchedOutput> outputs = {{"C", output.data(), output.size() * sizeof(float), sizeof(float)}};

  SUBCASE("a call that launched no kernel") {
    watch_outputs(Memory::device, outputs);
    CHECK(host_work_evidence(0).starts_with("computed without a kernel: the call launched none"));
  }
  SUBCASE("device outputs: a kernel's work, and copies between device arrays, say nothing") {
    watch_outputs(Memory::device, outputs);
    copy(output.data(), kernel_result.data(), 64 * sizeof(float), true, true);
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("device outputs: one that holds what the host copied into it") {
    watch_outputs(Memory::device, outputs);
    copy(output.data(), host.data(), 64 * sizeof(float), true, false);
    CHECK(host_work_evidence(1) == "computed without a kernel: your output `C` holds exactly what host code copied "
                                   "into the device during the call (cudaMemcpy), unchanged by any kernel: its values "
                                   "must be computed by a kernel");
  }
  SUBCASE("device outputs: zeros copied in, then a kernel adds into them, is no sign") {
    watch_outputs(Memory::device, outputs);
    const std::vector<float> zeros(64, 0.0f);
    copy(output.data(), zeros.data(), 64 * sizeof(float), true, false);
    output[0] += 5.0f;  // the kernel's atomicAdd
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("device outputs: through device memory the host filled first") {
    watch_outputs(Memory::device, outputs);
    copy(device_scratch.data(), host.data(), 64 * sizeof(float), true, false);  // not an output: no sign yet
    copy(output.data(), device_scratch.data(), 64 * sizeof(float), true, true);
    CHECK(host_work_evidence(1).find("holds exactly what host code copied") != std::string::npos);
  }
  SUBCASE("device outputs: host memory copied into another array, then changed by a kernel and copied on") {
    watch_outputs(Memory::device, outputs);
    copy(device_scratch.data(), host.data(), 64 * sizeof(float), true, false);
    device_scratch[3] = 9.0f;  // a kernel's work on it
    copy(output.data(), device_scratch.data(), 64 * sizeof(float), true, true);
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("device outputs: a kernel's sum read back, finished on the host and sent on, is GPU work") {
    watch_outputs(Memory::device, outputs);
    std::vector<float> read_back(64, 0.0f);
    copy(read_back.data(), kernel_result.data(), 64 * sizeof(float), false, true);  // what a kernel wrote
    copy(output.data(), host.data(), 64 * sizeof(float), true, false);
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("device outputs: reading back only what the host sent is no GPU work") {
    watch_outputs(Memory::device, outputs);
    copy(device_scratch.data(), host.data(), 64 * sizeof(float), true, false);
    std::vector<float> read_back(64, 0.0f);
    copy(read_back.data(), device_scratch.data(), 64 * sizeof(float), false, true);  // the inputs, back again
    copy(output.data(), host.data(), 64 * sizeof(float), true, false);
    CHECK(host_work_evidence(1).find("holds exactly what host code copied") != std::string::npos);
  }
  SUBCASE("device outputs: the inputs read back, summed on the host and sent (an empty kernel for show)") {
    std::vector<float> input(64, 1.0f);
    watch_outputs(Memory::device, outputs, {{"in", input.data(), input.size() * sizeof(float), sizeof(float)}});
    std::vector<float> read_back(64, 0.0f);
    copy(read_back.data(), input.data(), 64 * sizeof(float), false, true);
    copy(output.data(), host.data(), 64 * sizeof(float), true, false);
    CHECK(host_work_evidence(1).find("holds exactly what host code copied") != std::string::npos);
  }
  SUBCASE("host outputs: copied back from memory a kernel wrote") {
    watch_outputs(Memory::host, outputs);
    copy(output.data(), kernel_result.data(), 64 * sizeof(float), false, true);
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("host outputs: written by host code, or overwritten after the copy back") {
    watch_outputs(Memory::host, outputs);
    copy(output.data(), kernel_result.data(), 64 * sizeof(float), false, true);
    output[5] = 7.0f;
    CHECK(host_work_evidence(1) == "computed without a kernel: your output `C` was written by host code (element 5 "
                                   "first), not copied back from the device with cudaMemcpy: a result must come from "
                                   "memory a kernel wrote");
  }
  SUBCASE("host outputs: copied back from device memory holding what the host sent (an empty kernel)") {
    watch_outputs(Memory::host, outputs);
    copy(device_scratch.data(), host.data(), 64 * sizeof(float), true, false);
    copy(output.data(), device_scratch.data(), 64 * sizeof(float), false, true);
    CHECK(host_work_evidence(1) == "computed without a kernel: your output `C` was copied back from device memory "
                                   "holding exactly what host code had sent there (cudaMemcpy to the device), "
                                   "unchanged by any kernel");
  }
  SUBCASE("host outputs: the output sent to the device first, out of symmetry, then a kernel's result back") {
    watch_outputs(Memory::host, outputs);
    copy(device_scratch.data(), output.data(), 64 * sizeof(float), true, false);
    for (float& v : device_scratch) v = 4.0f;  // the kernel writes every element
    copy(output.data(), device_scratch.data(), 64 * sizeof(float), false, true);
    CHECK(host_work_evidence(1).empty());
  }
  SUBCASE("nothing is noted between watched calls") {
    watch_outputs(Memory::device, outputs);
    CHECK(host_work_evidence(1).empty());
    CHECK_FALSE(watching_copies());
    copy(output.data(), host.data(), 64 * sizeof(float), true, false);  // the runner's own upload, say
    watch_outputs(Memory::device, outputs);
    CHECK(host_work_evidence(1).empty());
  }
}
