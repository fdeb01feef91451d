#pragma once
// The student's runner holds no reference (design.md §4), so a job whose tasks call the
// reference (a reference-only step's cases) runs in two processes: the student's runner and the
// reference runner, each in its own folder. And a `fatal` event is evidence, not truth: the
// runner's event stream can be written by student code, so a task the student's runner refused
// is run again by the reference runner, and it is the harness's fault only if that fails too.
#include <filesystem>

#include "run/run_job.hpp"

namespace cugrade {

/// Runs `student.job`: the tasks with CheckTask::reference in `reference_runner` (folder
/// `reference_dir`, the sandbox and limits of `student`), the rest in `student.runner`; then
/// re-runs every task the student's runner ended with a `fatal` event in the reference runner
/// (reproduce_fatal). One outcome for every task.
RunOutcome run_job_with_reference(ProcessRunner& processes, const RunRequest& student,
                                  const std::filesystem::path& reference_runner,
                                  const std::filesystem::path& reference_dir);

/// For each task of `ran` that ended in a `fatal` event of the student's runner: the same task
/// (inputs, params, outputs) as the reference's call in a fresh reference runner. When the
/// reference runs it to its end, the refusal was the submission's doing: protocol_error; when
/// the reference is refused too, the harness_error stands.
void reproduce_fatal(ProcessRunner& processes, const RunRequest& student, RunOutcome& ran,
                     const std::filesystem::path& reference_runner,
                     const std::filesystem::path& reference_dir);

}  // namespace cugrade
