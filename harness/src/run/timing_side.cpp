#include "run/timing_side.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cugrade {
namespace fs = std::filesystem;

void start_side(TimingSide& side, ProcessRunner& processes, const RunRequest& base, const fs::path& runner,
                const fs::path& dir, const std::vector<TimeTask>& tasks, const std::string& stem) {
  Job job;
  job.events_file = (dir / (stem + ".events")).string();
  job.timings = tasks;
  side.events_file = job.events_file;
  side.ended.reset();
  side.greeted = false;
  side.loading.reset();
  side.event_ms.clear();
  side.wall_ms.clear();
  const fs::path job_file = dir / (stem + ".job.json");
  std::ofstream(job_file) << job_to_json(job);
  RunRequest request = base;
  request.runner = runner;
  request.work_dir = dir;
  ProcessRequest process{{runner.string(), "--serve", job_file.string()}, dir, base.environment, 0.0,
                         base.output_limit_bytes, {}, {}};
  if (base.sandboxed) process.sandbox = runner_sandbox(request);
  side.process = processes.start(process);
}

std::pair<std::vector<TimeTask>, std::vector<TimeTask>> sides_tasks(const std::vector<TimeTask>& tasks) {
  std::vector<TimeTask> reference, student;
  for (const TimeTask& task : tasks) {
    TimeTask theirs = task;
    theirs.reference_only = true;
    TimeTask ours = task;
    ours.reference_only = false;
    ours.atol = ours.rtol = 0.0;
    reference.push_back(std::move(theirs));
    student.push_back(std::move(ours));
  }
  return {std::move(reference), std::move(student)};
}

std::optional<std::string> ask(TimingSide& side, const std::string& command, double timeout_s) {
  if (!side.process->send(command)) return side.process->receive(0.05);  // a last word, if any
  return side.process->receive(timeout_s);
}

TaskStatus why_stopped(TimingSide& side, bool timed_out, double timeout_s) {
  if (!side.ended) side.ended = side.process->finish(timed_out ? 0.0 : 1.0);
  const ProcessResult& result = *side.ended;
  TaskStatus status;
  for (const Event& e : read_events(side.events_file.string())) {
    if (e.kind == "cuda_error") {
      status.outcome = Outcome::cuda_error;
      // After the GPU memory limit refused an allocation, that refusal is the likely cause.
      status.memory_refused = e.memory_refused;
      status.message = with_memory_refusal(cuda_error_message(e), e.memory_refused);
      return status;
    }
    if (e.kind == "fatal") {
      status.outcome = Outcome::protocol_error;
      status.fatal = true;
      status.message = e.error;
      return status;
    }
  }
  if (!result.started) {
    status.outcome = Outcome::harness_error;
    status.message = "could not start " + side.label + ": " + result.launch_error;
  } else if (result.output_limit_exceeded) {
    status.outcome = Outcome::output_limit;
    status.message = "your code printed more than the output limit while being timed; it was stopped";
  } else if (timed_out) {
    status.outcome = Outcome::timeout;
    status.message = fmt::format("a timed call did not finish within {:g} s and was stopped", timeout_s);
  } else if (result.signal) {
    status.outcome = Outcome::crashed;
    status.message = "the program died from " + describe_signal(*result.signal) + " while being timed";
  } else {
    status.outcome = Outcome::protocol_error;
    status.message = "the program stopped answering while being timed (exit code " +
                     std::to_string(result.exit_code) + "): does your code call exit(), or read or close "
                     "descriptors it did not open?";
  }
  return status;
}

std::optional<std::vector<double>> reply_numbers(const std::string& reply, const std::string& word, std::size_t count) {
  std::istringstream in(reply);
  std::string head;
  if (!(in >> head) || head != word) return std::nullopt;
  std::vector<double> values;
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') return std::nullopt;
    values.push_back(v);
  }
  if (values.size() != count) return std::nullopt;
  return values;
}

}  // namespace cugrade
