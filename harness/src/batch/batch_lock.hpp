#pragma once
// One batch at a time writes an output folder: two would grade students twice and race on their
// files. The parts of a sharded class share the folder (each holds OUT/.lock shared, its own
// part's OUT/.lock-shard-I-of-N alone); a whole class holds OUT/.lock alone. The locks go with
// the process (flock), so a batch that was killed never leaves one behind.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "batch/shard.hpp"
#include "core/result.hpp"

namespace cugrade {

/// The output folder's locks, held while it lives (moved, not copied).
class BatchLock {
 public:
  BatchLock(BatchLock&& other) noexcept;
  BatchLock& operator=(BatchLock&&) = delete;
  BatchLock(const BatchLock&) = delete;
  ~BatchLock();

  /// Makes `out` and its results/ folder and locks it for a class, or for `shard` of it. Another
  /// whole batch on `out` is an error; a shard's own predecessor (a requeued task's, still
  /// finishing its student) is waited for, and `log` says so.
  static Result<BatchLock> take(const std::filesystem::path& out, const std::optional<Shard>& shard,
                                const std::function<void(const std::string&)>& log);

 private:
  BatchLock() = default;
  int lock_fd_ = -1;        ///< OUT/.lock
  int shard_lock_fd_ = -1;  ///< OUT/.lock-shard-I-of-N
};

}  // namespace cugrade
