#include "run/baseline_cache.hpp"

#include <fmt/format.h>

namespace cugrade {

std::optional<std::vector<double>> BaselineCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  const auto found = baselines_.find(key);
  if (found == baselines_.end() || Clock::now() - found->second.first > lifetime_) return std::nullopt;
  return found->second.second;
}

void BaselineCache::store(const std::string& key, std::vector<double> samples) {
  std::lock_guard lock(mutex_);
  baselines_[key] = {Clock::now(), std::move(samples)};
}

std::string baseline_key(const std::filesystem::path& reference_runner, const std::map<std::string, std::string>& environment,
                         const TimeTask& task) {
  const auto gpu = environment.find("CUDA_VISIBLE_DEVICES");
  std::string key = reference_runner.string() + "\n" + (gpu == environment.end() ? "" : gpu->second) + "\n" +
                    task.id + "\n" + task.reference_step + "\n" + std::filesystem::path(task.inputs_file).filename().string();
  for (const auto& [name, value] : task.params) key += fmt::format("\n{}={}", name, value);
  return key;
}

}  // namespace cugrade
