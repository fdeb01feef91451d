#include "batch/gpu_lanes.hpp"

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

}  // namespace cugrade
