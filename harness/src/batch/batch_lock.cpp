#include "batch/batch_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <system_error>

#include <fmt/format.h>

namespace cugrade {
namespace fs = std::filesystem;

BatchLock::BatchLock(BatchLock&& other) noexcept : lock_fd_(other.lock_fd_), shard_lock_fd_(other.shard_lock_fd_) {
  other.lock_fd_ = other.shard_lock_fd_ = -1;
}

BatchLock::~BatchLock() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
  if (shard_lock_fd_ >= 0) ::close(shard_lock_fd_);
}

Result<BatchLock> BatchLock::take(const fs::path& out, const std::optional<Shard>& shard,
                                  const std::function<void(const std::string&)>& log) {
  std::error_code ec;
  fs::create_directories(out / "results", ec);
  if (ec) return fail("cannot create the output folder " + out.string() + ": " + ec.message());
  BatchLock lock;
  lock.lock_fd_ = ::open((out / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock.lock_fd_ < 0 || ::flock(lock.lock_fd_, (shard ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0)
    return fail("another `cugrade grade` is writing to " + out.string() + "; wait for it to end");
  if (!shard) return lock;
  lock.shard_lock_fd_ = ::open((out / fmt::format(".lock-shard-{}-of-{}", shard->index, shard->count)).c_str(),
                               O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock.shard_lock_fd_ < 0) return fail("cannot create a lock file in " + out.string());
  // A requeued task may start while its killed predecessor still finishes the student it was
  // grading: it waits for it, then grades what is still missing.
  if (::flock(lock.shard_lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    log("another `cugrade grade --shard " + shard_text(*shard) + "` is writing to " + out.string() +
        "; waiting for it to end");
    if (::flock(lock.shard_lock_fd_, LOCK_EX) != 0) return fail("cannot lock " + out.string());
  }
  return lock;
}

}  // namespace cugrade
