#pragma once
// The reference's baselines of lock-step timing (run/lockstep_timing.hpp: the reference taking
// turns with a twin of itself, before any process of a student's starts), kept for the next
// checks of a batch. A baseline depends on the reference, the target and the GPU, not on the
// student, so one taken seconds earlier on the same GPU serves; it is taken again once it is
// older than its lifetime, so that the GPU's drift (clocks, temperature) stays out of it.
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "job.hpp"

namespace cugrade {

/// Baselines by key (the reference runner, the GPU, the target); safe to share between threads.
class BaselineCache {
 public:
  /// How long a baseline serves, in seconds.
  explicit BaselineCache(double lifetime_s = 30.0) : lifetime_(lifetime_s) {}
  /// The samples stored under `key`, unless they are older than the lifetime (or absent).
  std::optional<std::vector<double>> find(const std::string& key) const;
  /// Stores `samples` under `key`, taken now.
  void store(const std::string& key, std::vector<double> samples);

 private:
  using Clock = std::chrono::steady_clock;
  std::chrono::duration<double> lifetime_;
  mutable std::mutex mutex_;
  std::map<std::string, std::pair<Clock::time_point, std::vector<double>>> baselines_;
};

/// The key a target's baseline is kept under in a BaselineCache: what it depends on, the
/// reference runner, the GPU (a lane's CUDA_VISIBLE_DEVICES in `environment`) and the target (its
/// reference step, size and inputs' name: the same in either side's copy of it).
std::string baseline_key(const std::filesystem::path& reference_runner,
                         const std::map<std::string, std::string>& environment, const TimeTask& task);

}  // namespace cugrade
