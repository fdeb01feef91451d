// run_grid: a kernel launch on the CPU backend. The grid's blocks are shared out to the
// workers; each block runs as fibers (block_runner.cpp). A launch is synchronous: it has
// finished, or failed, when it returns.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "cugrade_cpu/launch.hpp"
#include "error_state.hpp"
#include "fault_handler.hpp"
#include "fault_site.hpp"
#include "global_updates.hpp"
#include "launch_limits.hpp"
#include "memory_registry.hpp"
#include "shared_poison.hpp"
#include "slack_watch.hpp"
#include "worker_pool.hpp"

namespace cugrade_cpu {
namespace {

// CUGRADE_CPU_SCHEDULE=reverse resumes a block's threads last to first and takes blocks in
// reverse order. A correct kernel gives the same output under both orders; a result that
// changes is a race (the harness runs both and compares).
bool reverse_schedule() {
  const char* env = std::getenv("CUGRADE_CPU_SCHEDULE");
  return env && std::strcmp(env, "reverse") == 0;
}

}  // namespace

void run_grid(const LaunchConfig& config, const char* kernel, void (*thread_body)(void*), void* closure) {
  if (current_thread) {
    record_sticky_error(cudaErrorNotSupported,
                        "kernel " + code_name(kernel) + " was launched from inside a kernel; dynamic "
                        "parallelism is not supported by the CPU backend");
    return;
  }
  note_kernel(kernel);
  if (sticky_error() != cudaSuccess) return;  // as on a GPU after a fault: nothing runs
  if (auto rejection = check_launch(config, kernel)) {
    record_error(rejection->error, rejection->message);
    return;
  }
  note_threads(static_cast<long long>(config.grid.x) * config.grid.y * config.grid.z * config.block.x *
               config.block.y * config.block.z);
  ensure_fault_handler();
  GridShape shape;
  shape.kernel = kernel;
  shape.grid = config.grid;
  shape.block = config.block;
  shape.shared_bytes = config.shared_bytes;
  shape.thread_body = thread_body;
  shape.closure = closure;
  shape.reverse = reverse_schedule();
  shape.poison = shared_poison_byte();
  const std::size_t gx = config.grid.x, gy = config.grid.y;
  const std::size_t blocks = gx * gy * config.grid.z;
  std::mutex failure_mutex;
  std::optional<BlockFailure> failure;
  begin_global_updates(shape);
  run_on_workers(blocks, [&](BlockRunner& runner, std::size_t n) {
    const std::size_t id = shape.reverse ? blocks - 1 - n : n;
    const uint3 block{static_cast<unsigned>(id % gx), static_cast<unsigned>(id / gx % gy),
                      static_cast<unsigned>(id / (gx * gy))};
    auto result = runner.run(shape, block);
    if (!result) return true;
    std::lock_guard lock(failure_mutex);
    if (!failure) failure = std::move(result);
    return false;
  });
  end_global_updates();
  if (failure) {
    record_sticky_error(failure->error, failure->message);
    return;
  }
  if (const SlackDamage slack = damaged_slack(); !slack.text.empty()) {
    const bool before = slack.text.find("before the start") != std::string::npos;
    // The thread and the line, from the launch run again, watched (slack_watch.hpp).
    std::string who, line;
    if (const auto write = find_slack_write(shape, slack)) {
      who = " by " + thread_in_block(write->thread_idx, write->block_idx);
      if (const std::string site = source_site_of(write->pc); !site.empty()) line = "; the write is at " + site;
    }
    record_sticky_error(cudaErrorIllegalAddress, "out-of-bounds global memory write in kernel " + code_name(kernel) + who +
                                                     " at " + slack.text +
                                                     (before ? " (in the bytes before it that no guard page covers"
                                                             : " (inside the allocation's alignment padding") +
                                                     ": a GPU may not fault, but compute-sanitizer reports it)" + line);
  }
}

}  // namespace cugrade_cpu
