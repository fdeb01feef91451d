#include "worker_pool.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "fault_handler.hpp"

namespace cugrade_cpu {
namespace {

constexpr std::size_t kFiberStackBytes = 256 * 1024;

// Why persistent workers: a timing loop launches thousands of kernels, and each worker's fiber
// stacks (up to 1024 of them) are mapped once and then reused.
class Pool {
 public:
  explicit Pool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }

  void run(std::size_t count, const std::function<bool(BlockRunner&, std::size_t)>& job) {
    std::unique_lock lock(mutex_);
    job_ = &job;
    count_ = count;
    next_.store(0);
    stop_.store(false);
    busy_ = threads_.size();
    ++generation_;
    wake_.notify_all();
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
  }

  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

 private:
  void work() {
    prepare_worker_for_faults();
    StackPool stacks(kFiberStackBytes);
    BlockRunner runner(stacks);
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<bool(BlockRunner&, std::size_t)>* job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        job = job_;
      }
      for (std::size_t i; !stop_.load() && (i = next_.fetch_add(1)) < count_;)
        if (!(*job)(runner, i)) stop_.store(true);
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;
  const std::function<bool(BlockRunner&, std::size_t)>* job_ = nullptr;
  std::size_t count_ = 0, busy_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

unsigned configured_workers() {
  if (const char* env = std::getenv("CUGRADE_CPU_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

Pool& pool() {
  // Never destroyed: the workers block on a condition variable until the process exits.
  static Pool* instance = new Pool(configured_workers());
  return *instance;
}

}  // namespace

void run_on_workers(std::size_t count, const std::function<bool(BlockRunner&, std::size_t)>& job) {
  pool().run(count, job);
}

unsigned worker_count() { return pool().size(); }

}  // namespace cugrade_cpu
