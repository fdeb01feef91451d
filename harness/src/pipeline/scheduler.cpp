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

std::size_t cpu_threads_per_worker(std::size_t workers) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, cores / std::max<std::size_t>(1, workers));
}

namespace {

/// What a builder thread does next.
struct BuilderWork {
  std::size_t item;
  bool finish;  ///< finish an item a lane has run; else build it
};

/// The shared state of builders and lanes. One condition variable: every change wakes everyone
/// (a handful of threads), and each waits for what it can do.
class Queue {
 public:
  Queue(std::size_t count, std::size_t limit, const std::atomic<bool>* stop)
      : count_(count), limit_(limit), stop_(stop) {}

  /// A builder's next work: an item a lane has run, to finish (first: it frees its slot and its
  /// files), else the next item to build, waiting while the ready queue is full; nullopt when
  /// nothing is left to build or finish.
  std::optional<BuilderWork> next_for_builder() {
    std::unique_lock lock(mutex_);
    std::optional<BuilderWork> work;
    changed_.wait(lock, [&] {
      if (!finishing_.empty()) {
        work = BuilderWork{finishing_.front(), true};
        finishing_.pop_front();
        return true;
      }
      if (!stopped() && next_ < count_ && ready_.size() + building_ + running_ < limit_) {
        ++building_;
        work = BuilderWork{next_++, false};
        return true;
      }
      return no_more_builds() && (ready_.empty() || stopped()) && running_ == 0;
    });
    return work;
  }
  /// A built item, ready for a lane.
  void built(std::size_t item) {
    change([&] {
      --building_;
      ready_.push_back(item);
    });
  }
  /// The next built item for a lane; nullopt when none will come (or the batch stops).
  std::optional<std::size_t> next_to_run() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopped() || !ready_.empty() || (no_more_builds() && ready_.empty()); });
    if (stopped() || ready_.empty()) return std::nullopt;
    const std::size_t item = ready_.front();
    ready_.pop_front();
    ++running_;
    return item;
  }
  /// A lane has run `item`; `finish`: a builder finishes it next.
  void ran(std::size_t item, bool finish) {
    change([&] {
      --running_;
      if (finish) finishing_.push_back(item);
    });
  }
  /// Wakes every waiting thread (after `stop` was set).
  void wake_all() { changed_.notify_all(); }

 private:
  bool stopped() const { return stop_ && stop_->load(); }
  bool no_more_builds() const { return (stopped() || next_ >= count_) && building_ == 0; }
  template <typename F>
  void change(F f) {
    {
      std::lock_guard lock(mutex_);
      f();
    }
    changed_.notify_all();
  }
  const std::size_t count_;
  const std::size_t limit_;
  const std::atomic<bool>* stop_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> ready_, finishing_;
  std::size_t next_ = 0, building_ = 0, running_ = 0;
};

/// Keeps the calling thread, and every process it starts (a Linux thread's nice value and CPU
/// affinity are its own, and a child inherits both), off the lanes' cores: lower priority, and
/// only the cores builder_cpus() leaves them (each GPU's timing has two: timing_cpus). A timed
/// run's launches and clock readings should never wait for a compiler. Best effort.
void yield_cpu_to_lanes(std::size_t gpus) {
  constexpr int builder_nice = 10;
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), builder_nice);
  const cpu_set_t allowed = allowed_cpus();
  const cpu_set_t builders = builder_cpus(allowed, gpus);
  if (!CPU_EQUAL(&builders, &allowed)) sched_setaffinity(0, sizeof builders, &builders);
}

}  // namespace

void schedule_batch(std::size_t count, const WorkerPlan& plan, const std::function<void(std::size_t)>& build,
                    const std::function<void(std::size_t, std::size_t)>& run, const std::atomic<bool>* stop,
                    const std::function<void(std::size_t)>& finish) {
  const std::size_t builders = std::max<std::size_t>(1, plan.builders);
  if (plan.lanes == 0) {
    std::atomic<std::size_t> next{0};
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < builders; ++w)
      workers.emplace_back([&, w] {
        for (std::size_t i; !(stop && stop->load()) && (i = next++) < count;) {
          build(i);
          run(i, w);
          if (finish) finish(i);
        }
      });
    return;  // the jthreads join here
  }
  // Builds in flight and runs count against the limit too: a build finishing would otherwise
  // overfill it, and an item being run still holds its files.
  const std::size_t limit = plan.queue_limit ? plan.queue_limit : builders;
  Queue queue(count, std::max(limit, builders) + plan.lanes, stop);
  std::vector<std::jthread> threads;
  for (std::size_t lane = 0; lane < plan.lanes; ++lane)
    threads.emplace_back([&, lane] {
      while (auto item = queue.next_to_run()) {
        run(*item, lane);
        queue.ran(*item, static_cast<bool>(finish));
      }
    });
  for (std::size_t w = 0; w < builders; ++w)
    threads.emplace_back([&] {
      yield_cpu_to_lanes(plan.gpus ? plan.gpus : plan.lanes);
      while (auto work = queue.next_for_builder()) {
        if (work->finish) {
          finish(work->item);
          continue;
        }
        build(work->item);
        queue.built(work->item);
      }
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
