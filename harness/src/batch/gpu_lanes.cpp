#include "batch/gpu_lanes.hpp"

#include <algorithm>

namespace cugrade {

std::vector<std::string> gpu_lanes_for(int device_count, const char* visible) {
  std::vector<std::string> lanes;
  if (visible && *visible) {
    std::string list = visible;
    std::size_t start = 0;
    while (start <= list.size() && static_cast<int>(lanes.size()) < device_count) {
      std::size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      std::string id = list.substr(start, end - start);
      if (!id.empty()) lanes.push_back(id);
      start = end + 1;
    }
    return lanes;
  }
  for (int i = 0; i < device_count; ++i) lanes.push_back(std::to_string(i));
  return lanes;
}

CheckOptions options_on_gpu(CheckOptions base, const std::vector<std::string>& gpu_lanes, std::size_t gpu) {
  if (gpu < gpu_lanes.size()) base.runner_environment["CUDA_VISIBLE_DEVICES"] = gpu_lanes[gpu];
  base.lane = gpu;  // the timing's CPUs are its GPU's: one lane of it times at a time
  base.lanes = std::max<std::size_t>(1, gpu_lanes.size());
  return base;
}

}  // namespace cugrade
