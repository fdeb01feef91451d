#pragma once
// The two kinds of task a runner does (job.hpp). Each emits start, then done; on a problem it
// emits fatal or cuda_error and throws RunnerExit, or, for a check task this runner cannot run at
// all, fatal and TaskRefused (task_context.hpp).
#include "event_writer.hpp"
#include "job.hpp"

namespace cugrade::runner {

/// Calls one entry point once on poisoned outputs and writes the outputs and the inputs as the
/// call left them.
void run_check_task(EventWriter& events, const CheckTask& task);

/// Times the reference's entry point alone (TimeTask::reference_only: `cugrade bench`), with an
/// L2 flush before every sample, then, when asked, runs it once more on the verification inputs
/// and writes its outputs. Anything else is fatal: graded timing is lock-step (serve_task.hpp).
void run_time_task(EventWriter& events, const TimeTask& task);

}  // namespace cugrade::runner
