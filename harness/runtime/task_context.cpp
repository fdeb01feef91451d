#include "task_context.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "allocation_wraps.hpp"
#ifndef CUGRADE_CPU_RUNNER  // the CPU executor names a failed call itself (cudaGetErrorString)
#include "api_failures.hpp"
#endif
#include "call_marker.hpp"
#include "entry_range.hpp"
#include "launch_tracking.hpp"

namespace cugrade::runner {
namespace {

/// Whether this process's CUDA context still works after a CUDA error: the error was not a
/// sticky one (a launch refused for its shape, a refused allocation), so the device
/// synchronises and no error is left. After a fault inside a kernel every call repeats it.
bool context_survives() { return cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess; }

/// The kernels of a profiled call left inside the entry range (entry_range.hpp); -1: all.
long profiled_kernels() {
  static const long cap = [] {
    const char* value = std::getenv(profiled_kernels_variable);
    if (!value || !*value) return -1L;
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    return *end == '\0' && parsed >= 0 ? parsed : -1L;
  }();
  return cap;
}

std::string entry_label(const StepAdapter& adapter, bool reference) {
  return (reference ? std::string("cugrade_reference::") : std::string()) + adapter.entry + "()";
}

}  // namespace

void TaskContext::emit(const std::string& kind) {
  Event event;
  event.kind = kind;
  emit(std::move(event));
}

void TaskContext::emit(Event event) {
  event.task = task_;
  // An allocation the GPU memory limit refused goes with the task's end: why its code failed.
  if (event.kind == "done" || event.kind == "cuda_error" || event.kind == "fatal")
    event.memory_refused = take_memory_refusal();
  events_.emit(event);
}

void TaskContext::fatal(const std::string& message) {
  Event event;
  event.kind = "fatal";
  event.error = message;
  emit(std::move(event));
  throw RunnerExit{exit_protocol};
}

void TaskContext::refuse(const std::string& message) {
  Event event;
  event.kind = "fatal";
  event.error = message;
  emit(std::move(event));
  throw TaskRefused{};
}

void TaskContext::cuda_failure(const std::string& call, cudaError_t error) {
  Event event;
  event.kind = "cuda_error";
  event.call = call;
  event.error = cudaGetErrorString(error);
  if (const std::string why = launch_refusal(static_cast<int>(error)); !why.empty()) event.error += ": " + why;
  event.kernel = last_kernel_name();
  // A runtime call of the student's that made this error itself: named, with its line and why,
  // and no kernel blamed for it, in the same words on both backends; the report leads with it.
  const bool the_runners = call.starts_with("runner: ");
  if (const auto failed = the_runners ? std::nullopt : failed_call_with(static_cast<int>(error))) {
    event.error = failed->sentence;
    event.failed_call = failed->call;
    event.kernel.clear();
  }
#ifndef CUGRADE_CPU_RUNNER
  else if (const std::string seen = error_seen_at(); !seen.empty() && !the_runners) {
    event.error += " (your code's " + seen + " returned it)";
  }
#endif
  event.context_survived = context_survives();
  const bool survived = event.context_survived;
  emit(std::move(event));
  throw RunnerExit{exit_cuda, survived};
}

void TaskContext::check(cudaError_t error, const std::string& what) {
  if (error != cudaSuccess) cuda_failure("runner: " + what, error);
}

ArraySet TaskContext::read_arrays(const std::string& path, const std::string& what) {
  // A case's inputs may reach the runner only once the case has started (the harness links the
  // file in when it sees the start event: run_job.hpp, inputs_release_dir); wait for it a while.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (::access(path.c_str(), F_OK) != 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  std::string error;
  auto arrays = read_array_file(path, &error);
  if (!arrays) fatal("cannot read the " + what + ": " + error);
  return std::move(*arrays);
}

void TaskContext::write_arrays(const std::string& path, const ArraySet& arrays,
                               const std::string& what) {
  if (!write_array_file(path, arrays)) fatal("cannot write the " + what + " to " + path);
}

const StepAdapter& TaskContext::find_step(const std::string& step, bool refusable) {
  std::string known;
  for (const auto& adapter : adapter_steps()) {
    if (step == adapter.step) return adapter;
    known += (known.empty() ? "" : ", ") + std::string(adapter.step);
  }
  const std::string why = "unknown step '" + step + "' (this runner knows: " + known + ")";
  if (refusable) refuse(why);
  fatal(why);
}

std::string missing_side(const StepAdapter& adapter, bool reference) {
  if (!reference && adapter.student == nullptr)
    return "step '" + std::string(adapter.step) +
           "' has no student function in this runner (reference-only step, or the reference runner)";
  if (reference && adapter.reference == nullptr)
    return "step '" + std::string(adapter.step) +
           "': this is the student's runner, which holds no reference (the reference runs in its own process)";
  return "";
}

void TaskContext::call_entry(const StepAdapter& adapter, bool reference, const Call& call, bool marked) {
  prepare_call();
  invoke(adapter, reference, call, marked);
  finish_call(adapter, reference);
}

void TaskContext::prepare_call() {
  cudaGetLastError();
  reset_last_kernel();
#ifndef CUGRADE_CPU_RUNNER
  forget_api_failures();
#endif
}

void TaskContext::invoke(const StepAdapter& adapter, bool reference, const Call& call, bool marked) {
  if ((reference ? adapter.reference : adapter.student) == nullptr) fatal(missing_side(adapter, reference));
  try {
    EntryRange range;  // what a profiler looks at (entry_range.hpp)
#ifndef CUGRADE_CPU_RUNNER  // no profiler there
    if (marked) {
      launch_call_marker();
      reset_last_kernel();  // an error of the call is never blamed on the marker
      range.cap_kernels(profiled_kernels());
    }
#else
    (void)marked;
#endif
    (reference ? adapter.reference : adapter.student)(call);
  } catch (const std::logic_error& e) {
    // Call::ptr / Call::i throw this when the adapter names a buffer or parameter the job did
    // not provide: a harness/adapter mismatch, not the student's fault. Anything else the
    // student throws is left to terminate the runner (a crash, judged by the harness).
    if (std::string(e.what()).rfind("adapter asks for", 0) != 0) throw;
    fatal(entry_label(adapter, reference) + ": " + e.what());
  }
}

void TaskContext::finish_call(const StepAdapter& adapter, bool reference) {
  const std::string label = entry_label(adapter, reference);
  // Launch errors (bad configuration) show at once; faults inside kernels only at the sync,
  // which also waits for work the student put on other streams.
  if (cudaError_t error = cudaGetLastError(); error != cudaSuccess)
    cuda_failure(label + " → cudaGetLastError", error);
  if (cudaError_t error = cudaDeviceSynchronize(); error != cudaSuccess)
    cuda_failure(label + " → cudaDeviceSynchronize", error);
  // A kernel's fault the call hid by resetting the device is the call's failure all the same.
  int fault = 0;
  if (std::string detail = fault_since_reset(fault); !detail.empty()) {
    Event event;
    event.kind = "cuda_error";
    event.call = label + " → a kernel's fault, then cudaDeviceReset";
    event.error = detail;
    event.kernel = last_kernel_name();
    event.context_survived = false;  // a fresh runner for the rest: nothing of this one is trusted
    emit(std::move(event));
    throw RunnerExit{exit_cuda, false};
  }
}

}  // namespace cugrade::runner
