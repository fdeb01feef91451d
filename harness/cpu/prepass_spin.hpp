#pragma once
// The pre-pass's yield in a spin-wait of device code: `while (flag == 0);` and `while (!done) {}`
// become `while (flag == 0) { ::cugrade_cpu::yield_thread(); }`, and a braced while or do-while
// body starts with `::cugrade_cpu::spin_check();`, which yields every 1024th pass of the thread.
// Why: the CPU backend runs a block's threads as fibers that switch only at barriers, warp
// intrinsics and atomics, so a lane spinning on a `volatile` flag that a sibling thread sets
// (with or without a loop body of its own, `while (ready == 0) { ++tries; }`, `while (ready == 0)
// ++tries;`, `for (;;) { if (ready) break; }`) never let that sibling run; a GPU (every thread
// scheduled independently since Volta) gets past it. A loop that ends by itself pays an increment
// and a test per pass; a counted `for` loop (its condition names what its first or third clause
// names: a grid-stride or tile loop) is left alone, a `for` whose condition names nothing of
// them (`for (; ready == 0;)`, `for (int i = 0; !done; ++i)`) is a spin like a `while`.
#include <vector>

#include "prepass_rmw.hpp"
#include "prepass_tokens.hpp"

namespace cugrade::cpu {

/// Appends, for each `while (...)` and spinning `for` (above) inside `bodies` (the device-only
/// functions' bodies) whose body is empty (`;` or `{}`), the edit that puts
/// ::cugrade_cpu::yield_thread() in it; for each whose body is a block, the edit that starts it
/// with ::cugrade_cpu::spin_check(); for each whose body is another statement (a simple one, an
/// if, a loop, a switch), the two edits that make it a block starting so; likewise for
/// `do ... while (...);` (a `do {} while` gets the yield). Each group is made whole or not at all
/// (a body holding a lambda is left as written).
void yield_in_spin_waits(const TokenView& tokens, const std::vector<TokenRange>& bodies,
                         std::vector<std::vector<Edit>>& groups);

}  // namespace cugrade::cpu
