#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "device_buffers.hpp"
#include "statistics.hpp"
#include "task_context.hpp"
#include "tasks.hpp"

namespace cugrade::runner {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A buffer written before every sample so that each sample starts with a cold L2.
/// Why: an H100's L2 holds 50 MB; without the flush, the second call finds its inputs in L2 and
/// a memory-bound kernel looks faster than DRAM allows. Writing twice the L2 size evicts
/// everything the previous call left, for the student and the reference alike.
class L2Flush {
 public:
  L2Flush(TaskContext& context, std::int64_t requested_bytes) : context_(context) {
    bytes_ = static_cast<std::size_t>(requested_bytes);
    if (requested_bytes <= 0) {
      int device = 0, l2_bytes = 0;
      context_.check(cudaGetDevice(&device), "cudaGetDevice");
      context_.check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device),
                     "cudaDeviceGetAttribute (L2 cache size)");
      bytes_ = 2 * static_cast<std::size_t>(l2_bytes);
    }
    if (bytes_ > 0)
      context_.check(cudaMalloc(&buffer_, bytes_), "cudaMalloc (L2 flush buffer)");
  }
  ~L2Flush() {
    if (buffer_) cudaFree(buffer_);
  }
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  /// Overwrites the whole buffer (asynchronously, on the legacy default stream).
  void run() {
    if (buffer_) context_.check(cudaMemset(buffer_, ++value_ & 0xFF, bytes_), "cudaMemset (L2 flush)");
  }

 private:
  TaskContext& context_;
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int value_ = 0;
};

/// The two events around a timed call.
class EventPair {
 public:
  explicit EventPair(TaskContext& context) : context_(context) {
    context_.check(cudaEventCreate(&start_), "cudaEventCreate");
    context_.check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventPair() {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  cudaEvent_t start() const { return start_; }
  cudaEvent_t stop() const { return stop_; }
  /// Milliseconds between the two recorded events.
  double elapsed_ms() {
    float ms = 0.0f;
    context_.check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  TaskContext& context_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

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
  context.invoke(side.adapter, side.reference, side.call);
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
  context.write_arrays(path, side.buffers.read_outputs(), what);
}

}  // namespace

void run_time_task(EventWriter& events, const TimeTask& task) {
  const auto started = Clock::now();
  TaskContext context(events, task.id);
  context.emit("start");  // the harness measures this task's deadline from here
  const ArraySet inputs = context.read_arrays(task.inputs_file, "timing inputs");
  const StepAdapter& reference_step = context.find_step(task.reference_step);

  // The reference's buffers; the student shares them unless its step wants other memory. A
  // reference-only task (cugrade bench) has no student side at all, so it works for steps whose
  // student function is null.
  BufferSet reference_buffers(context, reference_step.memory, inputs, task.outputs);
  Event samples;
  samples.kind = "samples";
  Side reference{reference_step, true, reference_buffers,
                 reference_buffers.make_call(task.params), &samples.reference_ms,
                 &samples.reference_wall_ms};
  std::optional<BufferSet> separate;
  std::optional<Side> student;
  if (!task.reference_only) {
    const StepAdapter& student_step = context.find_step(task.step);
    if (student_step.memory != reference_step.memory)
      separate.emplace(context, student_step.memory, inputs, task.outputs);
    BufferSet& student_buffers = separate ? *separate : reference_buffers;
    student.emplace(Side{student_step, false, student_buffers,
                         student_buffers.make_call(task.params), &samples.student_ms,
                         &samples.student_wall_ms});
  }
  // Student first, as before: the order within a round is the same for every task.
  std::vector<Side*> sides;
  if (student) sides.push_back(&*student);
  sides.push_back(&reference);
  L2Flush flush(context, task.flush_bytes);
  EventPair timer(context);

  // Warm-up: module loading, first-touch allocation and clock ramp-up stay out of the samples.
  const auto warmup_start = Clock::now();
  do {
    for (Side* side : sides) call_once(context, *side);
  } while (seconds_since(warmup_start) < task.warmup_s);

  // Interleaved, so drift (clocks, temperature, a neighbour on the GPU) hits both sides alike.
  const StoppingRule rule{task.min_samples, task.max_samples, task.target_rse, task.budget_s};
  const auto sampling_start = Clock::now();
  for (;;) {
    const double elapsed = seconds_since(sampling_start);
    if (std::all_of(sides.begin(), sides.end(),
                    [&](const Side* side) { return should_stop(*side->event_ms, rule, elapsed); }))
      break;
    for (Side* side : sides) take_sample(context, *side, flush, timer);
  }
  context.emit(samples);

  // A fresh input set: a submission that skips or caches work during timing shows here. The
  // reference alone needs no such check, so a reference-only task verifies only when asked.
  if (!task.reference_only || !task.verify_inputs_file.empty()) {
    const ArraySet verify_inputs =
        context.read_arrays(task.verify_inputs_file, "verification inputs");
    if (student) verify(context, *student, verify_inputs, task.student_output_file, "student outputs");
    verify(context, reference, verify_inputs, task.reference_output_file, "reference outputs");
  }

  Event done;
  done.kind = "done";
  done.seconds = seconds_since(started);
  context.emit(std::move(done));
}

}  // namespace cugrade::runner
