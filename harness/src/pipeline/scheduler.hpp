#pragma once
// The order of work in a batch: builds in parallel, runs one at a time per lane (a lane is a GPU,
// or a share of one whose lanes take turns, so timings never share a GPU), or — on the CPU
// backend, where a run is as parallel as a build — each worker running what it has just built.
#include <sched.h>

#include <atomic>
#include <cstddef>
#include <functional>

#include "process/cpu_affinity.hpp"

namespace cugrade {

/// How many of each kind of worker.
struct WorkerPlan {
  std::size_t builders = 1;     ///< builds at the same time (-j)
  /// Run lanes (one per GPU), each running one built item at a time. 0: no lanes; the builder
  /// runs each item itself right after building it (lane = that builder's index).
  std::size_t lanes = 0;
  /// Built items that may wait for a lane; builders pause beyond it, so a slow GPU does not
  /// leave hundreds of built runners on disk. 0: as many as there are builders.
  std::size_t queue_limit = 0;
  /// The GPUs the lanes run on (lanes sharing one GPU take turns: gpu_turns.hpp); builds keep off
  /// each GPU's timing CPUs (timing_cpus). 0: one GPU per lane.
  std::size_t gpus = 0;
};

/// Each of `workers` CPU-backend runs' share of this machine's cores (at least 1), so that the
/// workers together use the cores once.
std::size_t cpu_threads_per_worker(std::size_t workers);

/// Calls build(i), then run(i, lane), then finish(i) (when given) for every item i in
/// [0, count): builds in item order on `plan.builders` threads; at most one run per lane at a
/// time; finishes on the builder threads, before any further build (so a lane does only what
/// needs its GPU: scoring, comparing large outputs and writing reports go to finish). With lanes,
/// the builder threads (and what they start) run at a lower CPU priority than the lanes, and off
/// the lanes' cores (builder_cpus). The callbacks must not throw (the caller turns its failures
/// into results). When `stop` becomes true no new build starts and built items still waiting are
/// dropped; runs already started finish, and so do their finishes. Returns when every started
/// item has finished.
void schedule_batch(std::size_t count, const WorkerPlan& plan, const std::function<void(std::size_t item)>& build,
                    const std::function<void(std::size_t item, std::size_t lane)>& run,
                    const std::atomic<bool>* stop = nullptr,
                    const std::function<void(std::size_t item)>& finish = {});

}  // namespace cugrade
