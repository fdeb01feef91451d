#include "device/device_info.hpp"

#include <nlohmann/json.hpp>

#include "device/helper_process.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

template <class T> T number(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<T>() : T{};
}

std::string text(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string DeviceInfo::arch() const {
  if (!present()) return {};
  const auto dot = compute_capability.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 >= compute_capability.size()) return {};
  const std::string major = compute_capability.substr(0, dot);
  const std::string minor = compute_capability.substr(dot + 1);
  for (char c : major + minor)
    if (c < '0' || c > '9') return {};
  return "sm_" + major + minor;
}

Result<DeviceInfo> parse_probe_output(const std::string& output) {
  const json j = json::parse(output, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("device_count") || !j["device_count"].is_number_integer())
    return fail("the GPU probe printed something unexpected: \"" + first_line(output) +
                "\"; rebuild cugrade so that cugrade-probe matches it");
  DeviceInfo info;
  info.device_count = j["device_count"].get<int>();
  info.error = text(j, "error");
  if (!info.present()) return info;
  info.name = text(j, "name");
  info.compute_capability = text(j, "compute_capability");
  if (info.name.empty() || info.compute_capability.empty())
    return fail("the GPU probe found a GPU but did not say its name and compute capability");
  info.sm_count = number<int>(j, "sm_count");
  info.total_global_mem = number<std::int64_t>(j, "total_global_mem");
  info.shared_mem_per_block = number<std::int64_t>(j, "shared_mem_per_block");
  info.shared_mem_per_block_optin = number<std::int64_t>(j, "shared_mem_per_block_optin");
  info.l2_cache_size = number<std::int64_t>(j, "l2_cache_size");
  info.max_threads_per_block = number<int>(j, "max_threads_per_block");
  info.warp_size = number<int>(j, "warp_size");
  info.clock_rate_khz = number<int>(j, "clock_rate_khz");
  info.memory_clock_rate_khz = number<int>(j, "memory_clock_rate_khz");
  info.memory_bus_width = number<int>(j, "memory_bus_width");
  info.driver_version = text(j, "driver_version");
  info.runtime_version = text(j, "runtime_version");
  if (j.contains("uuids") && j["uuids"].is_array())
    for (const auto& uuid : j["uuids"])
      if (uuid.is_string()) info.uuids.push_back(uuid.get<std::string>());
  return info;
}

std::string explain_probe_error(const std::string& error, const std::filesystem::path& driver_file) {
  std::error_code ec;
  if (error.find("driver version is insufficient") == std::string::npos || std::filesystem::exists(driver_file, ec))
    return error;
  return "no NVIDIA driver is loaded on this machine: there is no " + driver_file.string() + ", and CUDA says \"" +
         error + "\"";
}

Result<DeviceInfo> probe_device(ProcessRunner& runner, const std::filesystem::path& probe_binary) {
  // 60 s: creating a CUDA context can take seconds on a cold driver.
  auto output = run_helper(runner, probe_binary, "the GPU probe", 60.0);
  if (!output) return std::unexpected(output.error());
  auto info = parse_probe_output(*output);
  if (info && !info->error.empty()) info->error = explain_probe_error(info->error);
  return info;
}

}  // namespace cugrade
