#pragma once
// The two kinds of task a runner does (job.hpp). Each emits start, then done; on a problem it
// emits fatal or cuda_error and throws RunnerExit (task_context.hpp).
#include "event_writer.hpp"
#include "job.hpp"

namespace cugrade::runner {

/// Calls one entry point once on poisoned outputs and writes the outputs and the inputs as the
/// call left them.
void run_check_task(EventWriter& events, const CheckTask& task);

/// Times the student's and the reference's entry points interleaved, with an L2 flush before
/// every sample, then runs each once more on the verification inputs and writes their outputs.
/// A reference-only task (TimeTask::reference_only) times the reference alone, the same way.
void run_time_task(EventWriter& events, const TimeTask& task);

}  // namespace cugrade::runner
