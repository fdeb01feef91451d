#include "pipeline/scheduler.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace cugrade {

cpu_set_t builder_cpus(const cpu_set_t& allowed, std::size_t lanes) {
  const std::size_t reserve = 2 * lanes;  // per lane: the harness's thread and the runner taking its turn
  if (static_cast<std::size_t>(CPU_COUNT(&allowed)) < reserve + 2) return allowed;  // too few to spare
  cpu_set_t builders = allowed;
  std::size_t reserved = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && reserved < reserve; ++cpu)
    if (CPU_ISSET(cpu, &builders)) {
      CPU_CLR(cpu, &builders);
      ++reserved;
    }
  return builders;
}

std::size_t cpu_threads_per_worker(std::size_t workers) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, cores / std::max<std::size_t>(1, workers));
}

namespace {

/// The shared state of builders and lanes.
class Queue {
 public:
  Queue(std::size_t count, std::size_t limit, const std::atomic<bool>* stop)
      : count_(count), limit_(limit), stop_(stop) {}

  /// The next item to build, waiting while the ready queue is full; nullopt when none is left.
  std::optional<std::size_t> next_to_build() {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return ready_.size() + building_ < limit_ || stopped() || next_ >= count_; });
    if (stopped() || next_ >= count_) return std::nullopt;
    ++building_;
    return next_++;
  }
  /// A built item, ready for a lane.
  void built(std::size_t item) {
    {
      std::lock_guard lock(mutex_);
      --building_;
      ready_.push_back(item);
    }
    work_.notify_one();
  }
  /// A builder has nothing more to build.
  void builder_done() {
    {
      std::lock_guard lock(mutex_);
      ++builders_done_;
    }
    work_.notify_all();
  }
  /// The next built item for a lane; nullopt when every builder is done and nothing waits.
  std::optional<std::size_t> next_to_run(std::size_t builders) {
    std::unique_lock lock(mutex_);
    work_.wait(lock, [&] { return !ready_.empty() || builders_done_ == builders || stopped(); });
    if (stopped() || ready_.empty()) return std::nullopt;
    const std::size_t item = ready_.front();
    ready_.pop_front();
    lock.unlock();
    space_.notify_one();
    return item;
  }
  /// Wakes every waiting thread (after `stop` was set).
  void wake_all() {
    space_.notify_all();
    work_.notify_all();
  }

 private:
  bool stopped() const { return stop_ && stop_->load(); }
  const std::size_t count_;
  const std::size_t limit_;
  const std::atomic<bool>* stop_;
  std::mutex mutex_;
  std::condition_variable space_, work_;
  std::deque<std::size_t> ready_;
  std::size_t next_ = 0, building_ = 0, builders_done_ = 0;
};

/// Keeps the calling thread, and every process it starts (a Linux thread's nice value and CPU
/// affinity are its own, and a child inherits both), off the lanes' cores: lower priority, and
/// only the cores builder_cpus() leaves them. A timed run's launches and clock readings should
/// never wait for a compiler. Best effort.
void yield_cpu_to_lanes(std::size_t lanes) {
  constexpr int builder_nice = 10;
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), builder_nice);
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const cpu_set_t builders = builder_cpus(allowed, lanes);
  if (!CPU_EQUAL(&builders, &allowed)) sched_setaffinity(0, sizeof builders, &builders);
}

}  // namespace

void schedule_batch(std::size_t count, const WorkerPlan& plan, const std::function<void(std::size_t)>& build,
                    const std::function<void(std::size_t, std::size_t)>& run, const std::atomic<bool>* stop) {
  const std::size_t builders = std::max<std::size_t>(1, plan.builders);
  if (plan.lanes == 0) {
    std::atomic<std::size_t> next{0};
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < builders; ++w)
      workers.emplace_back([&, w] {
        for (std::size_t i; !(stop && stop->load()) && (i = next++) < count;) {
          build(i);
          run(i, w);
        }
      });
    return;  // the jthreads join here
  }
  // Builds in flight count against the limit too: a build finishing would otherwise overfill it.
  const std::size_t limit = plan.queue_limit ? plan.queue_limit : builders;
  Queue queue(count, std::max(limit, builders), stop);
  std::vector<std::jthread> threads;
  for (std::size_t lane = 0; lane < plan.lanes; ++lane)
    threads.emplace_back([&, lane] {
      while (auto item = queue.next_to_run(builders)) run(*item, lane);
    });
  for (std::size_t w = 0; w < builders; ++w)
    threads.emplace_back([&] {
      yield_cpu_to_lanes(plan.lanes);
      while (auto item = queue.next_to_build()) {
        build(*item);
        queue.built(*item);
      }
      queue.builder_done();
    });
  // A stop request arrives from a signal handler, which cannot notify: poll for it.
  if (stop) {
    std::jthread watcher([&](std::stop_token token) {
      while (!token.stop_requested()) {
        if (stop->load()) {
          queue.wake_all();
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
    for (auto& t : threads) t.join();
  }
}

}  // namespace cugrade
