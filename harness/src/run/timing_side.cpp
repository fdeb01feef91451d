#include "run/timing_side.hpp"

#include <fstream>

namespace cugrade {
namespace fs = std::filesystem;

void start_side(TimingSide& side, ProcessRunner& processes, const RunRequest& base, const fs::path& runner,
                const fs::path& dir, const std::vector<TimeTask>& tasks, const std::string& stem) {
  Job job;
  job.events_file = (dir / (stem + ".events")).string();
  job.timings = tasks;
  side.events_file = job.events_file;
  side.ended.reset();
  side.greeted = false;
  side.loading.reset();
  side.event_ms.clear();
  side.wall_ms.clear();
  const fs::path job_file = dir / (stem + ".job.json");
  std::ofstream(job_file) << job_to_json(job);
  RunRequest request = base;
  request.runner = runner;
  request.work_dir = dir;
  ProcessRequest process{{runner.string(), "--serve", job_file.string()}, dir, base.environment, 0.0,
                         base.output_limit_bytes, {}, {}};
  if (base.sandboxed) process.sandbox = runner_sandbox(request);
  side.process = processes.start(process);
}

std::pair<std::vector<TimeTask>, std::vector<TimeTask>> sides_tasks(const std::vector<TimeTask>& tasks) {
  std::vector<TimeTask> reference, student;
  for (const TimeTask& task : tasks) {
    TimeTask theirs = task;
    theirs.reference_only = true;
    TimeTask ours = task;
    ours.reference_only = false;
    ours.atol = ours.rtol = 0.0;
    reference.push_back(std::move(theirs));
    student.push_back(std::move(ours));
  }
  return {std::move(reference), std::move(student)};
}

}  // namespace cugrade
