#pragma once
// The runner's side of lock-step timing (`runner --serve <job.json>`): the job's timing tasks,
// one loaded at a time and served sample by sample on commands from the harness, so that the
// harness's own clock brackets every timed call and the student's runner and the reference
// runner, two processes, take turns. One runner serves every timed step of a check: a start (a
// sealed process, a CUDA context) costs far more than the samples.
// Commands arrive one per line on file descriptor 3; replies go one per line to descriptor 4:
//   (on start)                     → hello         the CUDA context is up; no task loaded
//   task <i>                       → loaded        task i's buffers, the last task's freed; its
//                                                  inputs read and uploaded, unless the last
//                                                  task read the same file (then kept)
//   prepare <k> <shift> <negate>   → ready         sample k's inputs, outputs poisoned, cold L2
//   run                            → ran <event ms>   the timed call (events around it, then a sync)
//   digest <key>                   → digest <s_0> .. <s_63> <b_0> .. <b_63> <e_high> <e_low>
//                                                  the buckets, then the exact part's two 32-bit
//                                                  halves (sample_inputs.hpp)
//   write <path>                   → written       the outputs of the last call, as an array file
//                                                  (not asked for a step of exact tolerance: its
//                                                  exact part compares every element)
//   quit                           → (exits 0)
// prepare, run, digest and write before any task is loaded, or a task index out of range, are
// fatal. A CUDA error or a protocol problem ends the runner with the usual event and exit code
// (task_context.hpp); the harness reads why from the events file. Everything a runner replies is
// evidence only: the harness checks it (run/lockstep_timing.hpp).
#include "event_writer.hpp"
#include "job.hpp"

namespace cugrade::runner {

/// Descriptors of the protocol.
inline constexpr int serve_command_fd = 3;
inline constexpr int serve_reply_fd = 4;

/// Serves the job's timing tasks (each the reference's side when TimeTask::reference_only, else
/// the student's) until `quit` or end of input; returns the runner's exit code.
int serve_timing(EventWriter& events, const Job& job);

}  // namespace cugrade::runner
