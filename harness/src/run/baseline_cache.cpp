#include "run/baseline_cache.hpp"

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

}  // namespace cugrade
