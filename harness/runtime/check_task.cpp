#include <chrono>
#include <cstdio>
#include <unistd.h>

#include "device_buffers.hpp"
#include "host_work.hpp"
#include "launch_tracking.hpp"
#ifndef CUGRADE_CPU_RUNNER
#include "fills.hpp"
#include "shared_poison.hpp"
#endif
#include "task_context.hpp"
#include "task_markers.hpp"
#include "tasks.hpp"

#ifdef CUGRADE_CPU_RUNNER
// The CPU executor's (executor/memory.cpp): a fault in a placed array names it, as the GPU's
// sanitizer names it from the task markers below.
extern "C" void cugrade_cpu_name_memory(const void* pointer, const char* name);
#endif

namespace cugrade::runner {
namespace {

/// Under compute-sanitizer (task_markers.hpp): the task's marker and its buffers, written straight
/// to stdout after what the program printed so far, so that the sanitizer's reports that follow
/// are the call's.
void write_markers(const std::string& task, const BufferSet& buffers) {
  if (!task_markers_on()) return;
  std::string lines = "\n" + std::string(task_marker_prefix) + task + "\n";
  for (const auto& b : buffers.placements()) lines += buffer_marker(b.name, b.pointer, b.bytes) + "\n";
  std::fflush(stdout);
  for (std::size_t done = 0; done < lines.size();) {
    const ssize_t n = ::write(1, lines.data() + done, lines.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

void run_check_task(EventWriter& events, const CheckTask& task) {
  const auto started = std::chrono::steady_clock::now();
  TaskContext context(events, task.id);
  // The start event comes first: the harness measures this case's deadline from it.
  context.emit("start");
  // What this runner cannot run at all (a step it does not know, a side it does not hold) is
  // refused before anything is read or called: the case fails alone and the runner goes on. A job
  // file rewritten to ask for the reference in every case costs one runner, not one per case.
  const StepAdapter& adapter = context.find_step(task.step, true);
  if (const std::string why = missing_side(adapter, task.reference); !why.empty()) context.refuse(why);
  const ArraySet inputs = context.read_arrays(task.inputs_file, "inputs");
  Event done;
  {
    BufferSet buffers(context, adapter.memory, inputs, task.outputs);
    write_markers(task.id, buffers);
#ifdef CUGRADE_CPU_RUNNER
    for (const auto& b : buffers.placements()) cugrade_cpu_name_memory(b.pointer, b.name.c_str());
#endif
#ifndef CUGRADE_CPU_RUNNER  // the CPU backend's executor poisons each block's shared memory itself
    poison_shared_memory(task.shared_poison.empty() ? shared_poison_byte_from_environment()
                                                    : shared_poison_byte(task.shared_poison.c_str()));
#endif
    const bool profiled = task.output_file.empty() && task.readback_file.empty();
    // Where the outputs' bytes come from during the call: the harness fails a result that is not
    // a kernel's work (host_work.hpp) unless the step allows host work.
    if (!profiled) watch_outputs(buffers.memory(), buffers.watched_outputs(), buffers.watched_inputs());
    context.call_entry(adapter, task.reference, buffers.make_call(task.params), profiled);
    done.threads = most_threads_since_reset();  // what the grid covered, for a wrong suffix's words
    done.launches = launches_since_reset();     // for the profile's counters (entry_range.hpp) too
    if (!profiled) done.host_work = host_work_evidence(done.launches);
#ifndef CUGRADE_CPU_RUNNER
    done.shared_memory = shared_memory_used();
#endif
    // A profiled call (no files asked for) ends here: at a timed size its outputs and inputs
    // are hundreds of MiB to copy back, digest and write, which no profile reads.
    if (!profiled) {
      buffers.write_outputs(task.output_file, "outputs");
      const ArraySet after = buffers.read_inputs();
      // The digests go with the done event, read by the harness as it arrives: a read-back file
      // rewritten later (an exit handler's) cannot hide a changed input.
      for (const auto& [name, array] : after) done.inputs[name] = array_digest(array);
      context.write_arrays(task.readback_file, after, "inputs read back");
    }
  }
  done.kind = "done";
  done.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  context.emit(std::move(done));
}

}  // namespace cugrade::runner
