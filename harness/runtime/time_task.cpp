#include <chrono>
#include <vector>

#include "allocation_wraps.hpp"
#include "device_buffers.hpp"
#include "timing_tools.hpp"
#include "statistics.hpp"
#include "task_context.hpp"
#include "tasks.hpp"

namespace cugrade::runner {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// One side of the comparison: an entry point and the buffers it is called on.
struct Side {
  const StepAdapter& adapter;
  bool reference;
  BufferSet& buffers;
  Call call;
  std::vector<double>* event_ms;
  std::vector<double>* wall_ms;
};

/// One untimed call (warm-up).
void call_once(TaskContext& context, Side& side) {
  side.buffers.reset_outputs();
  const TimedCallAllocations allocations;  // as the lock-step's calls (serve_task.cpp)
  context.call_entry(side.adapter, side.reference, side.call);
}

/// One timed call: cold L2, idle device, then events on the legacy default stream around the
/// call and a host clock around call and device-wide sync. Why both: work the student puts on
/// a side stream escapes the events but not the sync, so the harness compares the two.
void take_sample(TaskContext& context, Side& side, L2Flush& flush, EventPair& events) {
  side.buffers.reset_outputs();
  flush.run();
  context.check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before a sample)");
  context.prepare_call();
  const auto t0 = Clock::now();
  context.check(cudaEventRecord(events.start(), cudaStreamLegacy), "cudaEventRecord (start)");
  {
    const TimedCallAllocations allocations;
    context.invoke(side.adapter, side.reference, side.call);
  }
  context.check(cudaEventRecord(events.stop(), cudaStreamLegacy), "cudaEventRecord (stop)");
  context.finish_call(side.adapter, side.reference);
  const auto t1 = Clock::now();
  side.event_ms->push_back(events.elapsed_ms());
  side.wall_ms->push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
}

/// The final call of one side on the verification inputs; its outputs go to `path`.
void verify(TaskContext& context, Side& side, const ArraySet& inputs, const std::string& path,
            const std::string& what) {
  side.buffers.load_inputs(inputs);
  call_once(context, side);
  side.buffers.write_outputs(path, what);
}

}  // namespace

void run_time_task(EventWriter& events, const TimeTask& task) {
  const auto started = Clock::now();
  TaskContext context(events, task.id);
  context.emit("start");  // the harness measures this task's deadline from here
  // A student is never timed here: graded timing is lock-step, one side per process
  // (serve_task.hpp), so that no student code shares a process with the reference.
  if (!task.reference_only) context.fatal("a graded timing task runs in lock-step (runner --serve), not as a job task");
  const ArraySet inputs = context.read_arrays(task.inputs_file, "timing inputs");
  const StepAdapter& reference_step = context.find_step(task.reference_step);
  BufferSet buffers(context, reference_step.memory, inputs, task.outputs);
  Event samples;
  samples.kind = "samples";
  Side reference{reference_step, true, buffers, buffers.make_call(task.params), &samples.reference_ms,
                 &samples.reference_wall_ms};
  L2Flush flush(context, task.flush_bytes);
  EventPair timer(context);

  // Warm-up: module loading, first-touch allocation and clock ramp-up stay out of the samples.
  const auto warmup_start = Clock::now();
  do call_once(context, reference);
  while (seconds_since(warmup_start) < task.warmup_s);

  const StoppingRule rule{task.min_samples, task.max_samples, task.target_rse, task.budget_s};
  const auto sampling_start = Clock::now();
  while (!should_stop(*reference.event_ms, rule, seconds_since(sampling_start)))
    take_sample(context, reference, flush, timer);
  context.emit(samples);

  // The bench checks the reference's numbers only when asked (a verification input set given).
  if (!task.verify_inputs_file.empty()) {
    const ArraySet verify_inputs = context.read_arrays(task.verify_inputs_file, "verification inputs");
    verify(context, reference, verify_inputs, task.reference_output_file, "reference outputs");
  }

  Event done;
  done.kind = "done";
  done.seconds = seconds_since(started);
  context.emit(std::move(done));
}

}  // namespace cugrade::runner
