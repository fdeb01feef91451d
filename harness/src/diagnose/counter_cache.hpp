#pragma once
// The reference's counters, kept for the next checks of a batch or a self-test: they depend on
// the reference, the step, its size, the GPU and the profiler, never on the student, so one
// profile serves every student whose step needs diagnosing. With a file (one per GPU and driver,
// in cugrade's cache folder beside the ceilings) they are also kept from one run of cugrade to the
// next: a student's second check of a slow step profiles only their own code.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "diagnose/counters.hpp"

namespace cugrade {

/// Counters by key (the reference runner, the profiler, the GPU, the step and its size); safe to
/// share between threads.
class CounterCache {
 public:
  /// Kept in memory only.
  CounterCache() = default;
  /// Kept in `file` too: read at the first lookup, rewritten whole (atomically, with what another
  /// process added meanwhile) at each store. A file that cannot be read or written keeps nothing;
  /// it is never an error.
  explicit CounterCache(std::filesystem::path file);

  /// The counters stored under `key`, if any.
  std::optional<CallCounters> find(const std::string& key) const;
  /// Stores `counters` under `key`.
  void store(const std::string& key, const CallCounters& counters);

 private:
  /// Merges the file's entries into memory (the caller holds mutex_).
  void read_file() const;
  std::filesystem::path file_;
  mutable std::mutex mutex_;
  mutable bool read_ = false;
  mutable std::map<std::string, CallCounters> counters_;
};

/// The file a GPU and driver's reference counters are kept in: "counters-<gpu>-<driver>.json"
/// under `cache_dir`, every unsafe character of the names made '_'.
std::filesystem::path counter_cache_file(const std::filesystem::path& cache_dir, const std::string& gpu,
                                         const std::string& driver);

/// "<bytes>:<modification time in ns>" of a file, "" when it cannot be read: what changes when a
/// runner is rebuilt or a profiler reinstalled, so a key holding it never serves stale counters.
std::string file_identity(const std::filesystem::path& path);

}  // namespace cugrade
