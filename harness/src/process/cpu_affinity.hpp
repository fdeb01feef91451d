#pragma once
// Which CPUs the timing and the builds use. The two runners of lock-step timing, and the harness
// thread that drives them, share two cores of their own: on an H100 with 16 cores, reduce3's
// reference against itself scored 0.880 to 1.023 with the processes wherever the scheduler put
// them, and 0.993 to 1.004 with all of them on two cores (docs/measurements.md). Builds keep off
// those cores.
#include <sched.h>

#include <cstddef>

namespace cugrade {

/// The two CPUs of `allowed` for the timing of lane `lane` of `lanes` (a lane is a GPU): counted
/// from the end of the set, two per lane; all of `allowed` when fewer than 2·lanes + 2 CPUs would
/// leave too few for the rest (then nothing is reserved).
cpu_set_t timing_cpus(const cpu_set_t& allowed, std::size_t lane, std::size_t lanes);

/// The CPUs of `allowed` that builds may use: all but every lane's timing_cpus.
cpu_set_t builder_cpus(const cpu_set_t& allowed, std::size_t lanes);

/// This process's allowed CPUs (sched_getaffinity); every CPU of the set when it cannot be read.
cpu_set_t allowed_cpus();

/// Holds the calling thread on `cpus` while it lives, and so every process the thread starts
/// meanwhile (a child inherits its starter's affinity); restores the thread's affinity after.
/// Best effort: a set that cannot be applied leaves the thread as it was.
class PinnedThread {
 public:
  explicit PinnedThread(const cpu_set_t& cpus);
  ~PinnedThread();
  PinnedThread(const PinnedThread&) = delete;
  PinnedThread& operator=(const PinnedThread&) = delete;

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

}  // namespace cugrade
