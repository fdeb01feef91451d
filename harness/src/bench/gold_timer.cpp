#include "bench/gold_timer.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace cugrade {
namespace {

/// Holds the calling thread on the core it is running on, and restores its affinity after.
/// Why: the lectures' CPU column is one core; a thread the scheduler moves between cores pays
/// for cold caches on each move, which is not the gold's own time. Failure to pin is harmless.
class OneCore {
 public:
  OneCore() {
    CPU_ZERO(&saved_);
    const int cpu = sched_getcpu();
    if (cpu < 0 || sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~OneCore() {
    if (pinned_) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  OneCore(const OneCore&) = delete;
  OneCore& operator=(const OneCore&) = delete;

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

}  // namespace

double time_gold_ms(const Grader& grader, const Case& c, const ArraySet& inputs,
                    const GoldTiming& timing) {
  using Clock = std::chrono::steady_clock;
  const OneCore pinned;
  std::vector<double> times;
  double spent_s = 0.0;
  do {
    const auto start = Clock::now();
    const ArraySet expected = grader.gold(c, inputs);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    times.push_back(seconds * 1e3);
    spent_s += seconds;
  } while (spent_s < timing.budget_s && static_cast<int>(times.size()) < timing.max_calls);
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
}

}  // namespace cugrade
