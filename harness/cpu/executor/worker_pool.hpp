#pragma once
// The threads that run a grid's blocks: one per hardware thread (or CUGRADE_CPU_THREADS), each
// with its own fiber stacks and BlockRunner, created at the first launch and kept.
#include <cstddef>
#include <functional>

#include "block_runner.hpp"

namespace cugrade_cpu {

/// Runs `count` jobs (block indices) on the workers; `job` returns false to stop the grid
/// early (a block failed). Returns when every worker has stopped.
void run_on_workers(std::size_t count, const std::function<bool(BlockRunner&, std::size_t)>& job);

/// How many workers run blocks concurrently.
unsigned worker_count();

}  // namespace cugrade_cpu
