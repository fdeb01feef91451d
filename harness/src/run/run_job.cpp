#include "run/run_job.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "process/sandbox.hpp"
#include "process/step_folder.hpp"
#include "run/runner_events.hpp"
#include "allocation_wraps.hpp"
#include "global_race.hpp"
#include "start_gate.hpp"

namespace cugrade {
namespace {
using Clock = std::chrono::steady_clock;

/// The deadline of a task: check tasks get the spec's limit; timing tasks also their budget.
double task_deadline_s(const Job& job, const std::string& id, double task_timeout_s) {
  for (const auto& t : job.timings)
    if (t.id == id) return 3.0 * task_timeout_s + t.budget_s;
  return task_timeout_s;
}

/// The other tasks (checks and timings) of the step that check task `id` belongs to.
std::vector<std::string> same_step_tasks(const Job& job, const std::string& id) {
  std::string step;
  for (const auto& t : job.checks)
    if (t.id == id) step = t.step;
  std::vector<std::string> ids;
  for (const auto& t : job.checks)
    if (!step.empty() && t.step == step && t.id != id) ids.push_back(t.id);
  for (const auto& t : job.timings)  // timing the same hanging code would only wait longer
    if (!step.empty() && t.step == step) ids.push_back(t.id);
  return ids;
}

Job without_tasks(const Job& job, const std::set<std::string>& finished) {
  Job rest = job;
  std::erase_if(rest.checks, [&](const CheckTask& t) { return finished.contains(t.id); });
  std::erase_if(rest.timings, [&](const TimeTask& t) { return finished.contains(t.id); });
  return rest;
}

/// Why a runner process stopped inside `task`, as the student should read it.
/// The last "… Assertion `x' failed." line of `printed` (glibc's assert), trimmed; "" when none.
std::string failed_assertion(const std::string& printed) {
  const auto at = printed.rfind("Assertion `");
  if (at == std::string::npos) return "";
  const auto start = printed.rfind('\n', at);
  const auto end = printed.find('\n', at);
  std::string line = printed.substr(start == std::string::npos ? 0 : start + 1,
                                    (end == std::string::npos ? printed.size() : end) - (start == std::string::npos ? 0 : start + 1));
  // "runner: vecadd.cu:12: void k(...): Assertion `i < n' failed." — the program's own name first.
  if (const auto colon = line.find(": "); colon != std::string::npos && colon < at - (start == std::string::npos ? 0 : start + 1))
    line = line.substr(colon + 2);
  if (line.size() > 240) line = line.substr(0, 240) + "…";
  return line;
}

TaskStatus failure_of(const ProcessResult& result, const std::vector<Event>& events,
                      const std::string& task, double deadline_s) {
  TaskStatus status;
  for (const auto& e : events)
    if (e.task == task && e.kind == "fatal") {  // the runner refused the task: our fault
      status.outcome = Outcome::harness_error;
      status.message = "the runner could not run this case: " + e.error;
      status.fatal = true;
      return status;
    }
  for (const auto& e : events)
    if (e.task == task && e.kind == "cuda_error") {
      // Lost updates are what a GPU shows of a race on global memory: a wrong answer. The CPU
      // backend, where no update is lost, stops the kernel at the race and says so instead.
      if (e.error.starts_with(global_race_message_start)) {
        status.outcome = Outcome::wrong_answer;
        status.message = e.error;
        return status;
      }
      status.outcome = Outcome::cuda_error;
      status.call_refused = e.context_survived;
      status.message = cuda_error_message(e);
      return status;
    }
  if (result.output_limit_exceeded) {
    status.outcome = Outcome::output_limit;
    status.message = "your code printed more than the output limit; it was stopped (remove debug printing)";
  } else if (result.timed_out || result.killed_by_watchdog) {
    status.outcome = Outcome::timeout;
    char text[160];
    std::snprintf(text, sizeof text, "did not finish within %g s and was stopped (an endless loop, or far too slow)", deadline_s);
    status.message = text;
  } else if (result.signal) {
    status.outcome = Outcome::crashed;
    status.message = "the program died from " + describe_signal(*result.signal) + " during this case";
    // A failed assert() (in a kernel on the CPU backend, or on the host) printed what failed.
    if (*result.signal == SIGABRT)
      if (const std::string failed = failed_assertion(result.stderr_text); !failed.empty())
        status.message += ": " + failed + " (an assert() that failed; in a kernel, a GPU stops there with cudaErrorAssert)";
  } else {
    status.outcome = Outcome::crashed;
    status.message = "the program exited (code " + std::to_string(result.exit_code) +
                     ") before finishing this case: does your code call exit() or abort()?";
  }
  return status;
}
/// The tasks of `job` that repeat `task`, which did not finish, marked as skipped: they would
/// only repeat its crash, hang or refusal.
void skip_repeats_of(const Job& job, const std::string& task, RunOutcome& outcome, std::set<std::string>& finished) {
  for (const CheckTask& repeat : job.checks)
    if (repeat.repeats == task && !finished.contains(repeat.id)) {
      outcome.tasks[repeat.id] = {Outcome::not_run, "not run: the case it repeats did not finish (" + task + ")", 0.0, {}};
      outcome.tasks[repeat.id].skipped = true;
      finished.insert(repeat.id);
    }
}
}  // namespace



RunOutcome run_job(ProcessRunner& processes, const RunRequest& request) {
  RunOutcome outcome;
  const std::vector<std::string> all_ids = task_ids(request.job);
  std::set<std::string> finished;
  while (finished.size() < all_ids.size()) {
    const int attempt = ++outcome.runner_processes;
    Job job = without_tasks(request.job, finished);
    job.events_file = (request.work_dir / ("events-" + std::to_string(attempt) + ".jsonl")).string();
    const auto job_path = request.work_dir / ("job-" + std::to_string(attempt) + ".json");
    InputsRelease inputs(request.inputs_release_dir, job);
    std::ofstream(job_path) << job_to_json(job);

    double total_s = 5.0;  // runner start-up (CUDA context creation) before the first task
    for (const auto& id : task_ids(job)) total_s += task_deadline_s(job, id, request.task_timeout_s);
    EventFollower follower(job.events_file);
    std::vector<std::string> argv = request.wrapper;
    argv.push_back(request.runner.string());
    argv.push_back(job_path.string());
    ProcessRequest process{std::move(argv), request.work_dir, request.environment, total_s,
                           request.output_limit_bytes, {}, {}};
    if (!request.start_gate.empty()) process.environment[start_gate_variable] = request.start_gate.string();
    if (request.sandboxed) {
      RunRequest shown = request;  // the released inputs' folder too, read-only
      if (!inputs.dir().empty()) shown.read_only.push_back(inputs.dir());
      process.sandbox = runner_sandbox(shown);  // its limits set inside
    }
    else if (!request.gpu && request.host_memory_bytes > 0)  // the CPU runner's memory, unsealed too
      process.address_space_bytes = cpu_runner_address_space(request.host_memory_bytes, request.environment);
    // Work before the first case (the CUDA context, the program's constructors) is bounded.
    // A wrapper (compute-sanitizer, Nsight Compute) starts the runner far more slowly.
    const double startup_s = request.startup_timeout_s * (request.wrapper.empty() ? 1.0 : 3.0) +
                             (request.start_gate.empty() ? 0.0 : start_gate_most_s);
    const auto launched = Clock::now();
    bool startup_overran = false;
    process.should_kill = [&] {
      follower.poll();
      inputs.follow(follower.events());
      if (follower.events().empty() && !follower.current()) {
        startup_overran = std::chrono::duration<double>(Clock::now() - launched).count() > startup_s;
        return startup_overran;
      }
      // Between tasks the runner only frees one case's buffers and starts the next: a runner idle
      // there for a second is doing something of its own (a done it wrote itself to stop a slow
      // case's clock, an atexit handler that sleeps after the last task). It is ended; a task
      // left without outputs fails on its own, the rest run in a fresh runner.
      if (const auto& idle = follower.idle_since())
        return std::chrono::duration<double>(Clock::now() - *idle).count() > request.idle_grace_s;
      const auto& current = follower.current();
      if (!current) return false;
      const double elapsed = std::chrono::duration<double>(Clock::now() - current->second).count();
      return elapsed > task_deadline_s(job, current->first, request.task_timeout_s);
    };
    const ProcessResult result = processes.run(process);
    // The runner has ended: what it planted must not steer the next job file, rerun or read.
    remove_planted_links(request.work_dir);
    follower.poll();
    if (outcome.output_excerpt.empty())
      outcome.output_excerpt = (result.stdout_text + result.stderr_text).substr(0, 2048);
    if (!request.wrapper.empty()) outcome.process_outputs.push_back(result.stdout_text);

    if (!result.started) {  // the runner could not be executed at all: the harness's fault
      for (const auto& id : task_ids(job))
        outcome.tasks[id] = {Outcome::harness_error, "could not start the runner: " + result.launch_error, 0.0, {}};
      break;
    }
    std::size_t progress = 0;
    const std::vector<std::string> ids_here = task_ids(job);
    for (const auto& e : follower.events()) {
      // The student's code can write to the event stream too: only this job's tasks count, and
      // a task's first end (done or fatal) decides it.
      if (std::find(ids_here.begin(), ids_here.end(), e.task) == ids_here.end()) continue;
      if (e.kind == "samples") outcome.tasks[e.task].samples = e;
      if (e.kind == "done" && !finished.contains(e.task)) {
        outcome.tasks[e.task].outcome = Outcome::passed;
        outcome.tasks[e.task].seconds = e.seconds;
        outcome.tasks[e.task].input_digests = e.inputs;
        outcome.tasks[e.task].shared_memory = e.shared_memory;
        outcome.tasks[e.task].launched_threads = e.threads;
        finished.insert(e.task);
        ++progress;
      }
      // Refused (the harness's fault until reproduced), or a CUDA error: the case failed; the
      // runner went on where its context survived the error, else the rest run in a fresh one.
      if ((e.kind == "fatal" || e.kind == "cuda_error") && !finished.contains(e.task)) {
        outcome.tasks[e.task] = failure_of(result, follower.events(), e.task, 0.0);
        finished.insert(e.task);
        skip_repeats_of(job, e.task, outcome, finished);
        ++progress;
      }
    }
    // Why a case's code failed may be the GPU memory limit's refusal (runtime/memory_ledger.hpp).
    for (const auto& e : follower.events())
      if (!e.memory_refused.empty() && std::find(ids_here.begin(), ids_here.end(), e.task) != ids_here.end())
        outcome.tasks[e.task].memory_refused = e.memory_refused;
    // Any done of a task may carry the evidence that its result is not a kernel's work.
    for (const auto& e : follower.events())
      if (e.kind == "done" && !e.host_work.empty() && std::find(ids_here.begin(), ids_here.end(), e.task) != ids_here.end() &&
          outcome.tasks[e.task].host_work.empty())
        outcome.tasks[e.task].host_work = e.host_work;
    if (finished.size() == all_ids.size()) break;
    if (const auto& current = follower.current()) {  // died or was killed inside this task
      const double deadline = task_deadline_s(job, current->first, request.task_timeout_s);
      TaskStatus failed = failure_of(result, follower.events(), current->first, deadline);
      failed.samples = outcome.tasks[current->first].samples;
      failed.memory_refused = outcome.tasks[current->first].memory_refused;
      outcome.tasks[current->first] = failed;
      finished.insert(current->first);
      if (failed.outcome == Outcome::timeout)  // one hang per step is enough to know: skip the rest
        for (const auto& id : same_step_tasks(job, current->first))
          if (!finished.contains(id)) {
            outcome.tasks[id] = {Outcome::timeout, "not run: an earlier case of this step timed out (" + current->first + ")", 0.0, {}};
            outcome.tasks[id].skipped = true;
            finished.insert(id);
          }
      skip_repeats_of(job, current->first, outcome, finished);
      continue;  // the rest in a fresh runner
    }
    if (progress == 0) {  // stopped before any task began: nothing more will work this way
      std::string why = "the runner stopped before running any case";
      Outcome kind = Outcome::crashed;
      for (const auto& e : follower.events())
        if (e.kind == "fatal") { why = e.error; kind = Outcome::harness_error; }
      if (result.output_limit_exceeded) { why = "output limit exceeded before the first case"; kind = Outcome::output_limit; }
      if (result.timed_out) { why = "the runner did not start a case in time"; kind = Outcome::timeout; }
      if (startup_overran) {
        why = fmt::format("your program did not reach its first case within {:g} s of starting: work before the "
                          "first case (a constructor, a global variable's initialiser) is limited, and sees no "
                          "case's inputs", startup_s);
        kind = Outcome::timeout;
      }
      if (result.signal) why += " (" + describe_signal(*result.signal) + ")";
      for (const auto& id : task_ids(job))
        if (!finished.contains(id)) outcome.tasks[id] = {kind, why, 0.0, {}, kind == Outcome::harness_error};
      break;
    }
  }
  for (const auto& id : all_ids)  // a runner that skipped tasks silently has broken the protocol
    if (!outcome.tasks.contains(id))
      outcome.tasks[id] = {Outcome::protocol_error, "the runner never reported this case", 0.0, {}};
  return outcome;
}

SandboxSpec runner_sandbox(const RunRequest& request) {
  SandboxSpec sandbox;
  sandbox.gpu = request.gpu;
  sandbox.mounts.push_back({request.work_dir, {}, true});
  // The runner binary (the student's, built beside the runner's folder; the reference runner, in
  // the build tree) is only read, and only that one file is visible.
  const auto relative = request.runner.lexically_relative(request.work_dir);
  if (relative.empty() || *relative.begin() == "..") sandbox.mounts.push_back({request.runner, {}, false});
  for (const auto& dir : request.read_only) sandbox.mounts.push_back({dir, {}, false});
  // No address-space limit for a CUDA runner: the driver reserves a virtual range the size of all
  // GPU and host memory; what it can really take is bounded by its allocations' failures and by
  // the time limit.
  if (!request.gpu && request.host_memory_bytes > 0)
    sandbox.address_space_bytes = cpu_runner_address_space(request.host_memory_bytes, request.environment);
  return sandbox;
}

std::uint64_t cpu_runner_address_space(std::uint64_t host_memory_bytes,
                                       const std::map<std::string, std::string>& environment) {
  std::uint64_t workers = std::max(1u, std::thread::hardware_concurrency());
  if (const auto it = environment.find(cpu_threads_variable); it != environment.end()) {
    const long n = std::strtol(it->second.c_str(), nullptr, 10);
    if (n > 0) workers = static_cast<std::uint64_t>(n);
  }
  // Per worker (harness/cpu/executor): 1024 fiber stacks of 256 KiB with guard pages, an 8 MiB
  // thread stack, and glibc's malloc arena (64 MiB reserved); 384 MiB covers them with room.
  constexpr std::uint64_t per_worker = std::uint64_t{384} << 20;
  // The process itself: the runner's code, libstdc++, Boost, the loader.
  constexpr std::uint64_t base = std::uint64_t{256} << 20;
  return base + host_memory_bytes + workers * per_worker;
}

std::map<std::string, std::string> runner_environment() {
  auto env = scrubbed_environment();
  env["CUDA_MODULE_LOADING"] = "EAGER";
  // A side-by-side measurement's switch (CUGRADE_KEEP_ALLOCATIONS=0): passed on when set.
  if (const char* keep = std::getenv(runner::keep_allocations_variable)) env[runner::keep_allocations_variable] = keep;
  return env;
}

}  // namespace cugrade
