#pragma once
// What squeue says is still in the queue. Only that: whether a task succeeded is read from the
// result files it wrote (never from sacct, which needs slurmdbd, which many sites lack).
#include <cstddef>
#include <string>
#include <vector>

namespace cugrade {

/// One line of `squeue --noheader --array --format=%i|%T|%N|%r`.
struct QueuedTask {
  std::string job;     ///< "1234_7", "1234_[8-11%4]" (tasks not yet started), "1235"
  std::string state;   ///< "PENDING", "RUNNING", "COMPLETING", ...
  std::string node;    ///< where it runs; empty while pending
  std::string reason;  ///< why it waits ("Resources", "BeginTime", "launch failed requeued held"); "None" once running
};

/// The format string given to squeue for parse_squeue.
inline constexpr const char* squeue_format = "%i|%T|%N|%r";

/// The tasks in squeue's output (lines with fewer than three fields are left out; the reason is
/// optional).
std::vector<QueuedTask> parse_squeue(const std::string& output);

/// Whether a job in `state` has ended for good (COMPLETED, FAILED, CANCELLED, TIMEOUT,
/// NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, SPECIAL_EXIT, REVOKED). Anything
/// else (pending, running, completing, requeued, suspended, ...) may still write results.
bool job_has_ended(const std::string& state);

/// The tasks of `tasks` that may still write results.
std::vector<QueuedTask> still_queued(const std::vector<QueuedTask>& tasks);

/// Whether task `index` of array job `job_id` is among `tasks`, as its own line ("1234_7") or
/// in a pending range ("1234_[5-9%4]", "1234_[2,4-6]").
bool task_listed(const std::vector<QueuedTask>& tasks, const std::string& job_id, std::size_t index);

/// "2 RUNNING on node7, 1 PENDING (BeginTime), 1 PENDING (Dependency)": the tasks by state, a
/// pending task's reason with it, and the nodes they run on.
std::string queue_summary(const std::vector<QueuedTask>& tasks);

/// The tasks Slurm holds (a hold by an administrator or the user, or a launch that failed and was
/// requeued held): they never start until someone runs `scontrol release`.
std::vector<QueuedTask> held_tasks(const std::vector<QueuedTask>& tasks);

/// Whether squeue's error says only that none of the jobs asked for is known any more (they all
/// ended and left the controller's memory): then nothing is queued.
bool squeue_knows_none(const std::string& error_text);

}  // namespace cugrade
