#include "serve_task.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "device_buffers.hpp"
#include "sample_inputs.hpp"
#include "task_context.hpp"
#include "timing_tools.hpp"

namespace cugrade::runner {
namespace {

/// Reads command lines from a descriptor (no stdio: the student's code owns the C library's
/// buffered streams).
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  /// The next line without its newline; false at end of input.
  bool next(std::string& line) {
    for (;;) {
      const auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return true;
      }
      char chunk[4096];
      const ssize_t got = ::read(fd_, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

 private:
  int fd_;
  std::string buffer_;
};

/// Writes one reply line whole.
void reply(const std::string& text) {
  const std::string line = text + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t wrote = ::write(serve_reply_fd, line.data() + done, line.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the harness is gone; the next read ends the loop
    done += static_cast<std::size_t>(wrote);
  }
}

/// Exact text of a double (hexadecimal floating point).
std::string exact(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

/// One timing task being served.
class Server {
 public:
  Server(TaskContext& context, const TimeTask& task)
      : context_(context),
        task_(task),
        reference_(task.reference_only),
        step_(context.find_step(reference_ ? task.reference_step : task.step)),
        inputs_(context.read_arrays(task.inputs_file, "timing inputs")),
        base_(context, step_.memory, inputs_, {}),
        buffers_(context, step_.memory, inputs_, task.outputs),
        flush_(context, task.flush_bytes),
        timer_(context),
        call_(buffers_.make_call(task.params)) {}

  /// Handles one command of the loaded task (prepare, run, digest, write); false when `command`
  /// is none of them.
  bool handle(const std::string& command, std::istringstream& in) {
    if (command == "prepare") {
      long long k = 0, shift = 0;
      int negate = 0;
      in >> k >> shift >> negate;
      prepare(SampleVariant{shift, negate != 0});
      reply("ready");
    } else if (command == "run") {
      reply("ran " + exact(run()));
    } else if (command == "digest") {
      unsigned long long key = 0;
      in >> key;
      reply(digest(key));
    } else if (command == "write") {
      std::string path;
      std::getline(in >> std::ws, path);
      context_.write_arrays(path, buffers_.read_outputs(), "timed outputs");
      reply("written");
    } else {
      return false;
    }
    return true;
  }

 private:
  /// Sample inputs from the base copy, outputs poisoned (in-out ones restored, then rotated
  /// too), a cold L2 and an idle device.
  void prepare(SampleVariant variant) {
    buffers_.reset_outputs();
    const Call base = base_.make_call({});
    for (const auto& [name, array] : inputs_)
      write_sample_input(step_.memory, base.buffers.at(name), call_.buffers.at(name), array, variant);
    flush_.run();
    context_.check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before a sample)");
    context_.prepare_call();
  }

  /// The timed call: events on the legacy stream around it, then a device-wide sync (which the
  /// harness's clock also covers, so work on a side stream shows there).
  double run() {
    context_.check(cudaEventRecord(timer_.start(), cudaStreamLegacy), "cudaEventRecord (start)");
    context_.invoke(step_, reference_, call_);
    context_.check(cudaEventRecord(timer_.stop(), cudaStreamLegacy), "cudaEventRecord (stop)");
    context_.finish_call(step_, reference_);
    return timer_.elapsed_ms();
  }

  std::string digest(std::uint64_t key) {
    Digest d;
    std::int64_t first = 0;
    for (const auto& [name, decl] : task_.outputs) {
      Array layout = make_array(decl.type, {});
      layout.dims = decl.dims;
      try {
        add_digest(step_.memory, call_.buffers.at(name), layout, key, task_.atol, task_.rtol, first, d);
      } catch (const std::exception& e) {
        context_.check(cudaGetLastError(), std::string("digest of ") + name);
        context_.fatal(e.what());
      }
      first += layout.size();
    }
    std::string text = "digest";
    for (double s : d.sums) text += " " + exact(s);
    for (double b : d.bounds) text += " " + exact(b);
    return text;
  }

  TaskContext& context_;
  const TimeTask& task_;
  bool reference_;
  const StepAdapter& step_;
  ArraySet inputs_;
  BufferSet base_;
  BufferSet buffers_;
  L2Flush flush_;
  EventPair timer_;
  Call call_;
};

}  // namespace

int serve_timing(EventWriter& events, const Job& job) {
  TaskContext runner(events, "");
  // The loaded task: its context (its id on every event) and its buffers, freed before the next.
  std::unique_ptr<TaskContext> context;
  std::unique_ptr<Server> server;
  try {
    if (job.timings.empty()) runner.fatal("the job has no timing task to serve");
    reply("hello");
    LineReader commands(serve_command_fd);
    std::string line;
    while (commands.next(line)) {
      std::istringstream in(line);
      std::string command;
      in >> command;
      if (command == "quit") break;
      if (command == "task") {
        std::size_t index = 0;
        if (!(in >> index) || index >= job.timings.size())
          runner.fatal("timing task '" + line.substr(std::min<std::size_t>(line.size(), 5)) + "' does not exist");
        server.reset();
        context = std::make_unique<TaskContext>(events, job.timings[index].id);
        server = std::make_unique<Server>(*context, job.timings[index]);
        reply("loaded");
      } else if (!server) {
        runner.fatal("timing command '" + command + "' before any task was loaded");
      } else if (!server->handle(command, in)) {
        runner.fatal("unknown timing command '" + command + "'");
      }
    }
  } catch (const RunnerExit& exit) {
    return exit.code;
  }
  return exit_ok;
}

}  // namespace cugrade::runner
