#include "pipeline/environment.hpp"

#include <cstdlib>

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

std::string version_output(ProcessRunner& processes, const std::string& program) {
  const ProcessResult result = processes.run({{program, "--version"}, {}, scrubbed_environment(), 20.0, 65536, {}});
  return result.started && result.exit_code == 0 ? result.stdout_text : "";
}

std::string nvcc_version(ProcessRunner& processes, const Locations& where) {
  const std::string output = version_output(processes, where.nvcc.string());
  std::smatch match;
  static const std::regex release(R"(, V(\d+\.\d+\.\d+))");
  return std::regex_search(output, match, release) ? std::string(match[1]) : "";
}

Environment describe_environment(const std::string& backend, const DeviceInfo& device, const std::string& nvcc) {
  Environment env;
  env.backend = backend;
  env.nvcc = nvcc;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.host = host;
  // In a Slurm job: the node by the scheduler's name, the task, and the GPUs it was given, so that
  // a report says where its student ran ("gpu07 (Slurm node gpu07, job 41_3, CUDA_VISIBLE_DEVICES=1)").
  if (const char* node = std::getenv("SLURMD_NODENAME"); node && *node) {
    std::string where = std::string("Slurm node ") + node;
    const char* array_job = std::getenv("SLURM_ARRAY_JOB_ID");
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* job = std::getenv("SLURM_JOB_ID");
    if (array_job && task) where += std::string(", job ") + array_job + "_" + task;
    else if (job) where += std::string(", job ") + job;
    const char* gpus = std::getenv("CUDA_VISIBLE_DEVICES");
    if (backend == "cuda" && gpus && *gpus) where += std::string(", CUDA_VISIBLE_DEVICES=") + gpus;
    env.host += (env.host.empty() ? "" : " ") + ("(" + where + ")");
  }
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

std::shared_ptr<CounterCache> kept_counters(const std::optional<DeviceInfo>& device) {
  if (!device || !device->present()) return std::make_shared<CounterCache>();
  return std::make_shared<CounterCache>(counter_cache_file(default_cache_dir(), device->name, device->driver_version));
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
