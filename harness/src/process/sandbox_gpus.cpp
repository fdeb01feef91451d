// Which GPUs a sandboxed step gets on a machine with several: only those its
// CUDA_VISIBLE_DEVICES names (one batch lane's GPU), so a runner cannot reach, and slow down,
// the GPU on which a classmate is being timed.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <string>
#include <vector>
#include <system_error>

#include "process/sandbox.hpp"

namespace cugrade {

namespace {
namespace fs = std::filesystem;

std::string trimmed(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  return text.substr(start);
}
/// "nvidia0", "nvidia12": the node of one GPU (not nvidiactl, nvidia-uvm, ...).
bool is_gpu_node(const std::string& name) {
  return name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
         std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace

std::vector<NvidiaGpu> nvidia_gpus(const fs::path& driver_dir) {
  std::vector<NvidiaGpu> gpus;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(driver_dir, ec)) {
    NvidiaGpu gpu;
    gpu.bus = entry.path().filename().string();
    std::ifstream in(entry.path() / "information");
    std::string line;
    while (std::getline(in, line)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = trimmed(line.substr(0, colon));
      const std::string value = trimmed(line.substr(colon + 1));
      if (key == "Model") gpu.model = value;
      if (key == "GPU UUID") gpu.uuid = value;
      if (key == "Device Minor" && !value.empty() && std::all_of(value.begin(), value.end(), ::isdigit))
        gpu.minor = std::stoi(value);
    }
    if (gpu.minor >= 0 && !gpu.uuid.empty()) gpus.push_back(std::move(gpu));
  }
  std::sort(gpus.begin(), gpus.end(), [](const NvidiaGpu& a, const NvidiaGpu& b) { return a.bus < b.bus; });
  return gpus;
}

std::optional<std::vector<NvidiaGpu>> visible_gpus(const std::vector<NvidiaGpu>& gpus, const std::string& visible,
                                                   bool pci_order) {
  if (gpus.size() < 2 || trimmed(visible).empty()) return std::nullopt;
  // CUDA numbers GPUs fastest first unless told PCI_BUS_ID; with one model they coincide.
  const bool one_model = std::all_of(gpus.begin(), gpus.end(), [&](const NvidiaGpu& g) { return g.model == gpus[0].model; });
  std::vector<NvidiaGpu> chosen;
  std::size_t start = 0;
  while (start <= visible.size()) {
    std::size_t end = visible.find(',', start);
    if (end == std::string::npos) end = visible.size();
    const std::string id = trimmed(visible.substr(start, end - start));
    start = end + 1;
    if (id.empty()) return std::nullopt;
    const NvidiaGpu* match = nullptr;
    if (std::all_of(id.begin(), id.end(), ::isdigit)) {
      if (!pci_order && !one_model) return std::nullopt;
      const std::size_t index = std::stoul(id);
      if (index >= gpus.size()) return std::nullopt;
      match = &gpus[index];
    } else if (id.rfind("GPU-", 0) == 0) {
      for (const auto& gpu : gpus)
        if (gpu.uuid.rfind(id, 0) == 0) {
          if (match) return std::nullopt;  // an ambiguous prefix
          match = &gpu;
        }
    }
    if (!match) return std::nullopt;  // MIG instances and anything else: cannot tell
    if (std::none_of(chosen.begin(), chosen.end(), [&](const NvidiaGpu& g) { return g.minor == match->minor; }))
      chosen.push_back(*match);
  }
  return chosen;
}

std::vector<fs::path> nvidia_devices() {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/dev", ec)) {
    const std::string name = entry.path().filename().string();
    if (is_gpu_node(name) || name == "nvidiactl" || name == "nvidia-uvm" || name == "nvidia-uvm-tools" ||
        name == "nvidia-caps")
      found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}


void restrict_to_visible_gpus(std::vector<fs::path>& nodes, std::map<std::string, std::string>& environment) {
  const auto visible = environment.find("CUDA_VISIBLE_DEVICES");
  if (visible == environment.end()) return;
  const auto order = environment.find("CUDA_DEVICE_ORDER");
  const bool pci_order = order != environment.end() && order->second == "PCI_BUS_ID";
  const auto chosen = visible_gpus(nvidia_gpus(), visible->second, pci_order);
  if (!chosen) return;
  std::erase_if(nodes, [&](const fs::path& node) {
    const std::string name = node.filename().string();
    if (!is_gpu_node(name)) return false;  // nvidiactl, nvidia-uvm, ...: every GPU needs them
    const int minor = std::stoi(name.substr(6));
    return std::none_of(chosen->begin(), chosen->end(), [&](const NvidiaGpu& g) { return g.minor == minor; });
  });
  std::string uuids;
  for (const auto& gpu : *chosen) uuids += (uuids.empty() ? "" : ",") + gpu.uuid;
  visible->second = uuids;
}

}  // namespace cugrade
