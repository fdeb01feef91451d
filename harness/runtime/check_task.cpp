#include <chrono>

#include "device_buffers.hpp"
#include "task_context.hpp"
#include "tasks.hpp"

namespace cugrade::runner {

void run_check_task(EventWriter& events, const CheckTask& task) {
  const auto started = std::chrono::steady_clock::now();
  TaskContext context(events, task.id);
  // The start event comes first: the harness measures this case's deadline from it.
  context.emit("start");
  const ArraySet inputs = context.read_arrays(task.inputs_file, "inputs");
  const StepAdapter& adapter = context.find_step(task.step);
  Event done;
  {
    BufferSet buffers(context, adapter.memory, inputs, task.outputs);
    context.call_entry(adapter, task.reference, buffers.make_call(task.params));
    context.write_arrays(task.output_file, buffers.read_outputs(), "outputs");
    const ArraySet after = buffers.read_inputs();
    // The digests go with the done event, read by the harness as it arrives: a read-back file
    // rewritten later (an exit handler's) cannot hide a changed input.
    for (const auto& [name, array] : after) done.inputs[name] = array_digest(array);
    context.write_arrays(task.readback_file, after, "inputs read back");
  }
  done.kind = "done";
  done.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  context.emit(std::move(done));
}

}  // namespace cugrade::runner
