#include "pipeline/environment.hpp"

#include <unistd.h>

#include <regex>

namespace cugrade {

DeviceInfo find_device(ProcessRunner& processes, const Locations& where) {
  auto device = probe_device(processes, where.probe());
  if (device) return *device;
  DeviceInfo none;
  none.error = device.error().message;
  return none;
}

std::string nvcc_version(ProcessRunner& processes, const Locations& where) {
  ProcessRequest request{{where.nvcc.string(), "--version"}, {}, scrubbed_environment(), 20.0, 65536, {}};
  const ProcessResult result = processes.run(request);
  std::smatch match;
  static const std::regex release(R"(, V(\d+\.\d+\.\d+))");
  if (result.started && std::regex_search(result.stdout_text, match, release)) return match[1];
  return "";
}

Environment describe_environment(const std::string& backend, const DeviceInfo& device, const std::string& nvcc) {
  Environment env;
  env.backend = backend;
  env.nvcc = nvcc;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.host = host;
  if (backend == "cuda" && device.present()) {
    env.gpu = device.name;
    env.compute_capability = device.compute_capability;
    env.driver = device.driver_version;
    env.cuda_runtime = device.runtime_version;
    env.sm_clock_mhz = device.clock_rate_khz / 1000;
    env.memory_clock_mhz = device.memory_clock_rate_khz / 1000;
  } else if (backend == "cpu") {
    env.gpu = "none (CPU backend)";
  }
  return env;
}

std::optional<Ceilings> ceilings_for(ProcessRunner& processes, const Locations& where, const DeviceInfo& device) {
  const auto cache = default_cache_dir();
  if (auto cached = load_cached_ceilings(cache, device.name, device.driver_version)) return *cached;
  // Not calibrated on this GPU and driver yet: measure once (a few seconds) and cache.
  auto measured = calibrate(processes, where.calibrator());
  if (!measured) return std::nullopt;  // rates are then shown without "% of ceiling"
  (void)save_ceilings(cache, *measured);
  return *measured;
}

}  // namespace cugrade
