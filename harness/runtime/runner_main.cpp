// The runner's main: `runner <job.json>` runs the job's tasks; `runner --serve <job.json>` serves
// its timing task in lock-step (serve_task.hpp). Linked into every submission binary; the student
// supplies only the entry points. Exit codes: 0 all tasks done, 2 bad job or protocol (or no
// GPU), 3 CUDA error (after a case's error the context survives, once every task has run). The runner's stdout and stderr belong to the student's code: the runner
// itself writes only to the events file, apart from a one-line usage error and, under
// compute-sanitizer, the task markers (task_markers.hpp).
#include <cuda_runtime.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "event_writer.hpp"
#include "job.hpp"
#include "sanitizer_traces.hpp"
#include "serve_task.hpp"
#include "start_gate.hpp"
#include "task_context.hpp"
#include "tasks.hpp"

namespace {

using namespace cugrade;
using namespace cugrade::runner;

int usage_error(const std::string& message) {
  std::fprintf(stderr, "cugrade runner: %s\n", message.c_str());
  return exit_protocol;
}

/// Fails (fatal, exit 2) when no GPU can be used, and creates the CUDA context.
void require_device(EventWriter& events) {
  TaskContext context(events, "");
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0)
    context.fatal(std::string("no CUDA device: ") +
                  cudaGetErrorString(error != cudaSuccess ? error : cudaErrorNoDevice));
  // Why fatal, not a CUDA error: a busy or broken GPU is no fault of the submission, and a fatal
  // event before any case makes every case harness_error (never points lost).
  const cudaError_t created = cudaFree(nullptr);  // creates the CUDA context
  if (created == cudaErrorDevicesUnavailable)
    context.fatal("the GPU is busy: another process holds it (exclusive compute mode); grade again when it is free");
  if (created != cudaSuccess)
    context.fatal(std::string("cannot create a CUDA context: ") + cudaGetErrorString(created));
  // Only now: compute-sanitizer needs its variables until the context exists.
  hide_sanitizer_traces();
}

/// Waits at the start gate (start_gate.hpp) when the environment names one: until its file
/// exists, or start_gate_most_s passed.
void wait_at_start_gate() {
  const char* gate = std::getenv(start_gate_variable);
  if (!gate || !*gate) return;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(start_gate_most_s);
  while (::access(gate, F_OK) != 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

int run_job(const Job& job, bool serve) {
  EventWriter events(job.events_file);
  if (!events.ok()) return usage_error("cannot append to the events file " + job.events_file);
  try {
    require_device(events);
    if (serve) return serve_timing(events, job);
    wait_at_start_gate();
    bool refused = false;  // a task refused (its fatal event written): the others still run
    bool cuda_failed = false;  // a case ended by a CUDA error its context survived
    for (const auto& task : job.checks) try {
        run_check_task(events, task);
      } catch (const TaskRefused&) {
        refused = true;
      } catch (const RunnerExit& exit) {
        // A CUDA error the context survives (a launch's bad configuration, an allocation the
        // GPU memory limit refused) ends its case, whose event is written; the next case runs
        // here, as it would after a wrong answer. After any other (a fault inside a kernel, which
        // every later call repeats), a fresh runner runs the rest.
        if (exit.code != exit_cuda || !exit.context_survived) throw;
        cuda_failed = true;
      }
    for (const auto& task : job.timings) run_time_task(events, task);
    if (refused) return exit_protocol;
    if (cuda_failed) return exit_cuda;
  } catch (const RunnerExit& exit) {
    return exit.code;
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool serve = argc == 3 && std::string(argv[1]) == "--serve";
  if (argc != 2 && !serve) return usage_error("usage: runner [--serve] <job.json>");
  const char* job_file = argv[argc - 1];
  std::ifstream in(job_file);
  if (!in) return usage_error(std::string("cannot read the job file ") + job_file);
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  const auto job = job_from_json(text.str(), &error);
  if (!job) return usage_error(error);
  return run_job(*job, serve);
}
