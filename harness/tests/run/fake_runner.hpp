#pragma once
// A scripted stand-in for the runner process, for tests of run_job() and of the whole pipeline:
// it reads the job file it is given, appends events as the real runner does, and ends however a
// test says (done, a signal, a timeout, ...).
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "job.hpp"
#include "process/fake_process_runner.hpp"

namespace cugrade::test {

/// The job in the file `path`; fails the test when it is unreadable.
inline Job read_job(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  std::string error;
  auto job = job_from_json(text.str(), &error);
  REQUIRE_MESSAGE(job.has_value(), "the job file does not parse: " << error);
  return *job;
}

/// The job a fake runner was started with (its argv[1]).
inline Job job_of(const ProcessRequest& request) {
  REQUIRE(request.argv.size() == 2);
  return read_job(request.argv[1]);
}

/// An event of `kind` about `task`.
inline Event event(std::string kind, std::string task) {
  Event e;
  e.kind = std::move(kind);
  e.task = std::move(task);
  return e;
}

/// Appends one event line to the job's event stream, as the runner does.
inline void emit(const Job& job, const Event& e) {
  std::ofstream(job.events_file, std::ios::app) << event_to_line(e) << "\n";
}

/// Every task id of a job, checks first, in the order the runner runs them.
inline std::vector<std::string> task_ids_of(const Job& job) {
  std::vector<std::string> ids;
  for (const auto& t : job.checks) ids.push_back(t.id);
  for (const auto& t : job.timings) ids.push_back(t.id);
  return ids;
}

/// What the fake runner does inside one task, after its start event: nullopt finishes the task
/// (a done event follows); a result ends the process right there, with that result.
using TaskScript = std::function<std::optional<ProcessResult>(const Job& job, const std::string& task,
                                                              const ProcessRequest& request)>;

/// A runner process that, for each task of its job in order, writes start, runs `script`, and
/// writes done; it exits 0 after the last task. `jobs`, when given, collects each job it ran;
/// `on_done`, when given, may add to each done event before it is written.
inline FakeProcessRunner::Handler scripted_runner(TaskScript script, std::vector<Job>* jobs = nullptr,
                                                  std::function<void(const ProcessRequest&, Event&)> on_done = {}) {
  return [script, jobs, on_done](const ProcessRequest& request) {
    const Job job = job_of(request);
    if (jobs) jobs->push_back(job);
    for (const auto& id : task_ids_of(job)) {
      emit(job, event("start", id));
      // As the real harness polls while a runner runs: it sees the start and hands over the
      // case's inputs (run_job.hpp, inputs_release_dir).
      if (request.should_kill) request.should_kill();
      if (auto ended = script(job, id, request)) return *ended;
      Event done = event("done", id);
      done.seconds = 0.25;
      // As the real runner: the digests of the inputs it read back (the file the script wrote).
      for (const auto& check : job.checks)
        if (check.id == id)
          if (const auto readback = read_array_file(check.readback_file))
            for (const auto& [name, array] : *readback) done.inputs[name] = array_digest(array);
      if (on_done) on_done(request, done);
      emit(job, done);
    }
    return fake_exit(0);
  };
}

/// A runner process that goes on after a task ends without its done: for each task of its job,
/// start, then the event `ending` gives for it (a fatal refusal, a CUDA error its context
/// survived) or else done; it exits with `exit_code` after the last task. `jobs`, when given,
/// collects each job it ran.
inline FakeProcessRunner::Handler runner_going_on(std::function<std::optional<Event>(const std::string& task)> ending,
                                                  int exit_code, std::vector<Job>* jobs = nullptr) {
  return [ending, exit_code, jobs](const ProcessRequest& sent) {
    const Job job = job_of(sent);
    if (jobs) jobs->push_back(job);
    for (const auto& id : task_ids_of(job)) {
      emit(job, event("start", id));
      if (const auto ended = ending(id)) {
        emit(job, *ended);
        continue;
      }
      Event done = event("done", id);
      done.seconds = 0.25;
      emit(job, done);
    }
    return fake_exit(exit_code);
  };
}

/// A process that died from `signal`.
inline ProcessResult died_from(int signal) {
  ProcessResult result = fake_exit(-1);
  result.signal = signal;
  return result;
}

/// A process killed by the wall-clock timeout (which the runner implements with SIGKILL).
inline ProcessResult timed_out() {
  ProcessResult result = died_from(9);
  result.timed_out = true;
  return result;
}

/// A process killed because the request's should_kill said so.
inline ProcessResult killed_by_watchdog() {
  ProcessResult result = died_from(9);
  result.killed_by_watchdog = true;
  return result;
}

/// A process killed for printing past the output limit.
inline ProcessResult flooded() {
  ProcessResult result = died_from(9);
  result.output_limit_exceeded = true;
  result.stdout_text = std::string(1000, 'x');
  return result;
}

}  // namespace cugrade::test
