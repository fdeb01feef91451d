// cugrade-probe: prints one JSON object describing GPU 0, and every visible GPU's UUID (read by
// `cugrade doctor`, by architecture detection, for "no GPU present" messages and for the GPU's
// claim). Always exits 0: no device or no
// driver is an answer ({"device_count": 0, "error": ...}), not a failure.
#include <cuda_runtime.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

/// "13.0" from the 13000 the CUDA API reports.
std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

int attribute(cudaDeviceAttr which, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, which, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;  // 0 = not available on this device or toolkit
  }
  return value;
}

/// A GPU's UUID as nvidia-smi writes it ("GPU-8f3a0c1e-1234-...").
std::string uuid_text(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
  }
  return text;
}

nlohmann::json no_device(cudaError_t error) {
  return {{"device_count", 0}, {"error", cudaGetErrorString(error)}};
}

nlohmann::json probe() {
  int count = 0;
  if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess) return no_device(error);
  if (count == 0) return no_device(cudaErrorNoDevice);
  cudaDeviceProp prop{};
  if (cudaError_t error = cudaGetDeviceProperties(&prop, 0); error != cudaSuccess)
    return no_device(error);
  nlohmann::json uuids = nlohmann::json::array({uuid_text(prop.uuid)});
  for (int i = 1; i < count; ++i) {
    cudaDeviceProp other{};
    const bool known = cudaGetDeviceProperties(&other, i) == cudaSuccess;
    if (!known) cudaGetLastError();
    uuids.push_back(known ? uuid_text(other.uuid) : "");  // "": that GPU's claim falls back to its lane's name
  }
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return {
      {"device_count", count},
      {"name", prop.name},
      {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
      {"sm_count", prop.multiProcessorCount},
      {"total_global_mem", prop.totalGlobalMem},
      {"shared_mem_per_block", prop.sharedMemPerBlock},
      {"shared_mem_per_block_optin", prop.sharedMemPerBlockOptin},
      {"l2_cache_size", prop.l2CacheSize},
      {"max_threads_per_block", prop.maxThreadsPerBlock},
      {"warp_size", prop.warpSize},
      // Clock rates left cudaDeviceProp in CUDA 13; the attributes remain (kHz).
      {"clock_rate_khz", attribute(cudaDevAttrClockRate, 0)},
      {"memory_clock_rate_khz", attribute(cudaDevAttrMemoryClockRate, 0)},
      {"memory_bus_width", attribute(cudaDevAttrGlobalMemoryBusWidth, 0)},
      {"driver_version", version_text(driver)},
      {"runtime_version", version_text(runtime)},
      {"uuids", uuids},  // every visible GPU's: what names it alike in every process (gpu_claim)
  };
}

}  // namespace

int main() {
  std::printf("%s\n", probe().dump().c_str());
  return 0;
}
