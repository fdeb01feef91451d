#include "diagnose/counter_cache.hpp"

namespace cugrade {

std::optional<CallCounters> CounterCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  const auto it = counters_.find(key);
  if (it == counters_.end()) return std::nullopt;
  return it->second;
}

void CounterCache::store(const std::string& key, const CallCounters& counters) {
  std::lock_guard lock(mutex_);
  counters_[key] = counters;
}

}  // namespace cugrade
