#pragma once
// Facts about where a check runs: the GPU (through cugrade-probe), nvcc's version, the host, and
// what is kept per GPU and driver: the calibrated ceilings, the reference's diagnosis counters.
#include <memory>
#include <optional>

#include "core/locations.hpp"
#include "device/ceilings.hpp"
#include "device/device_info.hpp"
#include "diagnose/counter_cache.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// What the probe found; a DeviceInfo with no device when the probe is missing or fails.
DeviceInfo find_device(ProcessRunner& processes, const Locations& where);

/// What `program --version` prints on stdout; empty when it cannot be run or fails.
std::string version_output(ProcessRunner& processes, const std::string& program);

/// "13.0.88" from `nvcc --version`; empty when nvcc cannot be run.
std::string nvcc_version(ProcessRunner& processes, const Locations& where);

/// The report's Environment for a backend ("cuda" or "cpu") and the device found.
Environment describe_environment(const std::string& backend, const DeviceInfo& device,
                                 const std::string& nvcc);

/// The reference's counters for diagnosis on `device`: kept in cugrade's cache folder for this GPU
/// and driver (counter_cache_file) when there is a GPU, else in memory only.
std::shared_ptr<CounterCache> kept_counters(const std::optional<DeviceInfo>& device);

/// The ceilings of this GPU and driver: from the cache, or measured now and cached.
std::optional<Ceilings> ceilings_for(ProcessRunner& processes, const Locations& where,
                                     const DeviceInfo& device);

}  // namespace cugrade
