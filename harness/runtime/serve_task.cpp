#include "serve_task.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "allocation_wraps.hpp"
#include "body_reach.hpp"
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

/// A timing task's base inputs, on the host and where its step wants them: kept for the next
/// task when that reads the same file into the same kind of memory (the timed steps of one size
/// share their inputs, and reading and uploading them is most of a task's start).
struct BaseInputs {
  BaseInputs(TaskContext& context, std::string file, Memory memory, const MovableBodies& movable)
      : file(std::move(file)), memory(memory), arrays(context.read_arrays(this->file, "timing inputs")),
        buffers(context, memory, arrays, {}), reach(reach_of(context, arrays, movable)),
        reach_buffers(context, memory, reach, {}) {}
  std::string file;
  Memory memory;
  ArraySet arrays;
  BufferSet buffers;
  /// The movable bodies' reach (body_reach.hpp): "positions" (the positions' shape) and, where
  /// velocities move too, "velocities" (row 0's reach times the speed); empty when none move.
  ArraySet reach;
  BufferSet reach_buffers;

 private:
  static ArraySet reach_of(TaskContext& context, const ArraySet& arrays, const MovableBodies& movable) {
    ArraySet reach;
    if (movable.empty()) return reach;
    const auto x = arrays.find(movable.x), y = arrays.find(movable.y);
    if (x == arrays.end() || y == arrays.end() || x->second.type != DType::f32 || y->second.type != DType::f32 ||
        x->second.dims != y->second.dims || x->second.dims.empty())
      context.fatal("the movable bodies " + movable.x + ", " + movable.y + " are not two f32 arrays of one shape");
    const std::int64_t n = x->second.dims.back(), rows = n == 0 ? 0 : x->second.size() / n;
    const std::vector<float> positions =
        body_reach(x->second.data<float>(), y->second.data<float>(), rows, n, movable.keep_apart, movable.reach);
    Array& p = reach["positions"] = make_array(DType::f32, x->second.dims);
    std::copy(positions.begin(), positions.end(), p.data<float>());
    if (movable.vx.empty()) return reach;
    const auto vx = arrays.find(movable.vx), vy = arrays.find(movable.vy);
    if (vx == arrays.end() || vy == arrays.end() || vx->second.type != DType::f32 || vy->second.type != DType::f32 ||
        vx->second.size() != n || vy->second.size() != n)
      context.fatal("the movable velocities " + movable.vx + ", " + movable.vy + " are not two f32 arrays of " +
                    std::to_string(n) + " bodies");
    Array& v = reach["velocities"] = make_array(DType::f32, vx->second.dims);
    for (std::int64_t j = 0; j < n; ++j)
      v.data<float>()[j] = static_cast<float>(positions[static_cast<std::size_t>(j)] * movable.speed);
    return reach;
  }
};

/// The step a timing task calls: the reference's function or the student's.
const StepAdapter& step_of(TaskContext& context, const TimeTask& task) {
  return context.find_step(task.reference_only ? task.reference_step : task.step);
}

/// One timing task being served.
class Server {
 public:
  Server(TaskContext& context, const TimeTask& task, std::shared_ptr<const BaseInputs> base)
      : context_(context),
        task_(task),
        reference_(task.reference_only),
        step_(step_of(context, task)),
        shared_(std::move(base)),
        inputs_(shared_->arrays),
        base_(shared_->buffers),
        buffers_(context, step_.memory, inputs_, task.outputs, BufferSet::InputStart::unset),
        flush_(context, task.flush_bytes),
        timer_(context),
        call_(buffers_.make_call(task.params)) {}

  /// Handles one command of the loaded task (prepare, run, digest, write); false when `command`
  /// is none of them.
  bool handle(const std::string& command, std::istringstream& in) {
    if (command == "prepare") {
      long long k = 0, shift = 0;
      int negate = 0;
      unsigned long long signs = 0;  // absent: no element's sign flipped on its own
      in >> k >> shift >> negate >> signs;
      prepare(SampleVariant{shift, negate != 0, signs});
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
      buffers_.write_outputs(path, "timed outputs");
      reply("written");
    } else {
      return false;
    }
    return true;
  }

 private:
  /// Sample inputs from the base copy (each element's own sign flipped in the task's sign-free
  /// inputs only), outputs poisoned (in-out ones restored, then rotated too), a cold L2 and an
  /// idle device.
  void prepare(SampleVariant variant) {
    buffers_.reset_outputs();
    const Call base = base_.make_call({});
    const auto& free = task_.sign_free_inputs;
    for (const auto& [name, array] : inputs_) {
      SampleVariant own = variant;
      if (std::find(free.begin(), free.end(), name) == free.end()) own.signs = 0;
      write_sample_input(step_.memory, base.buffers.at(name), call_.buffers.at(name), array, own);
    }
    move_bodies(variant);
    flush_.run();
    context_.check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before a sample)");
    context_.prepare_call();
  }

  /// The movable bodies of the sample moved, each within its reach, by amounts keyed by the
  /// sample's `signs` (nothing when no body is movable).
  void move_bodies(const SampleVariant& variant) {
    const MovableBodies& bodies = task_.movable_bodies;
    if (shared_->reach.empty() || variant.signs == 0) return;
    const Call reach = shared_->reach_buffers.make_call({});
    const auto move = [&](const std::string& name, const char* reach_name, int axis) {
      move_sample_bodies(step_.memory, static_cast<const float*>(reach.buffers.at(reach_name)),
                         static_cast<float*>(call_.buffers.at(name)), inputs_.at(name), variant.shift, variant.signs,
                         axis);
    };
    move(bodies.x, "positions", 0);
    move(bodies.y, "positions", 1);
    if (shared_->reach.contains("velocities")) {
      move(bodies.vx, "velocities", 2);
      move(bodies.vy, "velocities", 3);
    }
  }

  /// The timed call: events on the legacy stream around it, then a device-wide sync (which the
  /// harness's clock also covers, so work on a side stream shows there). Its allocations are
  /// served from blocks earlier calls freed (allocation_wraps.hpp).
  double run() {
    context_.check(cudaEventRecord(timer_.start(), cudaStreamLegacy), "cudaEventRecord (start)");
    {
      const TimedCallAllocations allocations;
      context_.invoke(step_, reference_, call_);
    }
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
    // The exact part as two 32-bit halves: numbers a double holds exactly.
    text += " " + std::to_string(d.exact >> 32) + " " + std::to_string(d.exact & 0xFFFFFFFFULL);
    for (double spot : d.spots) text += " " + exact(spot);
    return text;
  }

  TaskContext& context_;
  const TimeTask& task_;
  bool reference_;
  const StepAdapter& step_;
  std::shared_ptr<const BaseInputs> shared_;
  const ArraySet& inputs_;
  const BufferSet& base_;
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
  std::shared_ptr<const BaseInputs> base;  // outlives the task that read it, for the next one
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
        const TimeTask& task = job.timings[index];
        server.reset();
        free_kept_allocations();
        context = std::make_unique<TaskContext>(events, task.id);
        const Memory memory = step_of(*context, task).memory;
        if (!base || base->file != task.inputs_file || base->memory != memory) {
          base.reset();  // freed before the next is read: one set at a time on the device
          base = std::make_shared<const BaseInputs>(runner, task.inputs_file, memory, task.movable_bodies);
        }
        server = std::make_unique<Server>(*context, task, base);
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
