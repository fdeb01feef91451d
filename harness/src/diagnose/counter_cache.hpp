#pragma once
// The reference's counters, kept for the next checks of a batch or a self-test: they depend on
// the reference, the step, its size and the GPU, never on the student, so one profile serves
// every student whose step needs diagnosing.
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "diagnose/counters.hpp"

namespace cugrade {

/// Counters by key (the reference runner, the GPU, the step and its size); safe to share between threads.
class CounterCache {
 public:
  /// The counters stored under `key`, if any.
  std::optional<CallCounters> find(const std::string& key) const;
  /// Stores `counters` under `key`.
  void store(const std::string& key, const CallCounters& counters);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, CallCounters> counters_;
};

}  // namespace cugrade
