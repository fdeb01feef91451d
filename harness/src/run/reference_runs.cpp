#include "run/reference_runs.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// `task` moved into `dir`: its outputs are written there (its inputs are only read).
CheckTask moved_to(CheckTask task, const fs::path& dir) {
  task.output_file = (dir / fs::path(task.output_file).filename()).string();
  task.readback_file = (dir / fs::path(task.readback_file).filename()).string();
  return task;
}

/// `base` with another runner, folder and job.
RunRequest with_runner(const RunRequest& base, const fs::path& runner, const fs::path& dir, Job job) {
  RunRequest request = base;
  request.runner = runner;
  request.work_dir = dir;
  request.job = std::move(job);
  request.start_gate.clear();  // the student's runner's: outside this one's sandbox
  return request;
}

}  // namespace

RunOutcome run_job_with_reference(ProcessRunner& processes, const RunRequest& student,
                                  const fs::path& reference_runner, const fs::path& reference_dir) {
  Job students = student.job, references;
  references.timings.clear();
  students.checks.clear();
  for (const CheckTask& task : student.job.checks)
    (task.reference ? references.checks : students.checks).push_back(task);
  RunOutcome outcome;
  if (!students.checks.empty() || !students.timings.empty()) {
    RunRequest own = student;
    own.job = std::move(students);
    outcome = run_job(processes, own);
    reproduce_fatal(processes, student, outcome, reference_runner, reference_dir);
  }
  if (!references.checks.empty()) {
    const RunOutcome theirs =
        run_job(processes, with_runner(student, reference_runner, reference_dir, std::move(references)));
    for (const auto& [id, status] : theirs.tasks) outcome.tasks[id] = status;
    outcome.runner_processes += theirs.runner_processes;
  }
  return outcome;
}

void reproduce_fatal(ProcessRunner& processes, const RunRequest& student, RunOutcome& ran,
                     const fs::path& reference_runner, const fs::path& reference_dir) {
  Job again;
  for (const CheckTask& task : student.job.checks) {
    const auto it = ran.tasks.find(task.id);
    if (it == ran.tasks.end() || !it->second.fatal || task.reference) continue;
    CheckTask reference = moved_to(task, reference_dir / "reproduce");
    reference.reference = true;
    again.checks.push_back(std::move(reference));
  }
  if (again.checks.empty()) return;
  fs::create_directories(reference_dir / "reproduce");
  const RunOutcome theirs =
      run_job(processes, with_runner(student, reference_runner, reference_dir / "reproduce", again));
  for (const CheckTask& task : again.checks) {
    TaskStatus& status = ran.tasks.at(task.id);
    const auto reproduced = theirs.tasks.find(task.id);
    if (reproduced == theirs.tasks.end() || reproduced->second.outcome != Outcome::passed) {
      status.message += " (the reference runner was refused this case too: cugrade's fault, no points lost)";
      continue;
    }
    // The reference ran it to its end on the same inputs: what stopped the student's runner came
    // from the submission (a forged event, or code that broke the runner's state).
    status.outcome = Outcome::protocol_error;
    status.fatal = false;
    status.message = "your program stopped the runner during this case (\"" + status.message +
                     "\"), and the reference runner ran the same case without trouble: it counts as your failure";
  }
}

}  // namespace cugrade
