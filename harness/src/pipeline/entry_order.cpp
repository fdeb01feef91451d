#include "pipeline/entry_order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "core/cache_file.hpp"

namespace cugrade {

namespace {

using nlohmann::json;

/// The file's format: a version, and the seconds by key.
constexpr int file_format = 1;
/// Keys a file keeps at most: beyond, it starts again from this run's (renamed entries leave
/// keys that nothing asks for any more).
constexpr std::size_t most_entries = 4096;

}  // namespace

std::map<std::string, double> load_entry_seconds(const std::filesystem::path& file) {
  std::map<std::string, double> out;
  const json kept = read_cache_section(file, file_format, "seconds");
  for (const auto& [key, value] : kept.items())
    if (value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() >= 0.0)
      out[key] = value.get<double>();
  return out;
}

void save_entry_seconds(const std::filesystem::path& file, const std::map<std::string, double>& seconds) {
  if (file.empty() || seconds.empty()) return;
  std::map<std::string, double> kept = load_entry_seconds(file);
  if (kept.size() + seconds.size() > most_entries) kept.clear();
  for (const auto& [key, s] : seconds) kept[key] = s;
  json entries = json::object();
  for (const auto& [key, s] : kept) entries[key] = std::round(s * 100.0) / 100.0;
  write_cache_section(file, file_format, "seconds", entries);
}

std::vector<std::size_t> longest_first(const std::vector<std::string>& keys, const std::map<std::string, double>& seconds) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Never seen: as long as can be.
  const auto cost = [&](std::size_t i) {
    const auto it = seconds.find(keys[i]);
    return it == seconds.end() ? HUGE_VAL : it->second;
  };
  std::ranges::stable_sort(order, std::greater<>{}, cost);
  return order;
}

}  // namespace cugrade
