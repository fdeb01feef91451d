#pragma once
// The executor's side of read_modify_write.hpp: which global addresses a launch may update, and
// which thread last updated each one without an atomic.
#include "block_runner.hpp"

namespace cugrade_cpu {

/// Starts watching the global updates of a launch of `shape` (before its blocks run): the global
/// allocations' span, and a new generation of the table, so a thread of an earlier launch never
/// races with one of this launch.
void begin_global_updates(const GridShape& shape);

/// Stops watching (after the launch's blocks ran): updates outside a launch are host code.
void end_global_updates();

}  // namespace cugrade_cpu
