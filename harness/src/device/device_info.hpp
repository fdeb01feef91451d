#pragma once
// What the harness knows about the GPU: the facts cugrade-probe (harness/runtime/probe_main.cpp)
// prints as JSON, read here so `cugrade doctor`, architecture detection and "no GPU present"
// messages share one parser.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// GPU facts read from cugrade-probe's JSON (device 0).
struct DeviceInfo {
  int device_count = 0;                  ///< GPUs visible to this process
  std::string error;                     ///< why there is no usable device (device_count 0)
  std::string name;                      ///< e.g. "NVIDIA H100 80GB HBM3"
  std::string compute_capability;        ///< "major.minor", e.g. "9.0"
  int sm_count = 0;                      ///< streaming multiprocessors
  std::int64_t total_global_mem = 0;     ///< bytes
  std::int64_t shared_mem_per_block = 0; ///< bytes, without opting in
  std::int64_t shared_mem_per_block_optin = 0;  ///< bytes, the most a kernel may opt in to
  std::int64_t l2_cache_size = 0;        ///< bytes
  int max_threads_per_block = 0;         ///< e.g. 1024
  int warp_size = 0;                     ///< threads per warp (32)
  int clock_rate_khz = 0;                ///< peak SM clock; 0 when the driver does not say
  int memory_clock_rate_khz = 0;         ///< peak memory clock; 0 when the driver does not say
  int memory_bus_width = 0;              ///< bits
  std::string driver_version;            ///< the CUDA version the driver supports, e.g. "13.0"
  std::string runtime_version;           ///< the CUDA runtime the probe was built with
  /// Every visible GPU's UUID, in CUDA's order ("GPU-8f3a0c1e-..."), which names it alike in every
  /// process (device/gpu_claim.hpp); empty where the probe did not say.
  std::vector<std::string> uuids;

  /// True when a GPU was found.
  bool present() const { return device_count > 0; }
  /// The nvcc architecture of device 0, e.g. "sm_90"; empty when no GPU is present.
  std::string arch() const;
};

/// Parses what cugrade-probe printed; fails on anything that is not its JSON.
Result<DeviceInfo> parse_probe_output(const std::string& json);

/// The probe's `error` as a TA should read it: CUDA says "CUDA driver version is insufficient for
/// CUDA runtime version" also where no NVIDIA driver is loaded at all (no GPU, or a container
/// without one), which reads as "upgrade the driver"; without `driver_file` (the kernel
/// driver's /proc/driver/nvidia/version) it says that no driver is loaded. Else `error` as it is.
std::string explain_probe_error(const std::string& error,
                                const std::filesystem::path& driver_file = "/proc/driver/nvidia/version");

/// Runs the probe binary and parses its output. "No GPU" is a DeviceInfo with present() false;
/// a failure means the probe itself could not be run or printed garbage.
Result<DeviceInfo> probe_device(ProcessRunner& runner, const std::filesystem::path& probe_binary);

}  // namespace cugrade
