#include "cluster/array_chunks.hpp"

#include <charconv>
#include <sstream>

namespace cugrade {

std::string ArrayChunk::array_spec(std::size_t throttle) const {
  std::string spec;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!spec.empty()) spec += ',';
    spec += std::to_string(indices[i]);
    if (j > i) spec += '-' + std::to_string(indices[j]);
    i = j + 1;
  }
  if (throttle > 0) spec += '%' + std::to_string(throttle);
  return spec;
}

std::vector<ArrayChunk> array_chunks(const std::vector<std::size_t>& shards, std::size_t max_array_size) {
  const std::size_t width = std::max<std::size_t>(1, max_array_size);
  std::vector<ArrayChunk> chunks;
  for (const std::size_t shard : shards) {
    if (shard == 0) continue;
    const std::size_t base = 1 + (shard - 1) / width * width;
    if (chunks.empty() || chunks.back().base != base) chunks.push_back(ArrayChunk{base, {}});
    chunks.back().indices.push_back(shard - base);
  }
  return chunks;
}

std::optional<std::size_t> max_array_size(const std::string& scontrol_config) {
  std::istringstream lines(scontrol_config);
  std::string line;
  while (std::getline(lines, line)) {
    const auto key = line.find_first_not_of(' ');
    if (key == std::string::npos || line.compare(key, 12, "MaxArraySize") != 0) continue;
    const auto equals = line.find('=', key);
    if (equals == std::string::npos) return std::nullopt;
    const auto digits = line.find_first_not_of(' ', equals + 1);
    if (digits == std::string::npos) return std::nullopt;
    std::size_t value = 0;
    const char* end = line.data() + line.size();
    const auto [stop, ec] = std::from_chars(line.data() + digits, end, value);
    if (ec != std::errc() || value == 0) return std::nullopt;
    return value;
  }
  return std::nullopt;
}

}  // namespace cugrade
