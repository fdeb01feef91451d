#pragma once
// The pre-pass's yield in a spin-wait of device code: `while (flag == 0);` and `while (!done) {}`
// become `while (flag == 0) { ::cugrade_cpu::yield_thread(); }`. Why: the CPU backend runs a
// block's threads as fibers that switch only at barriers, warp intrinsics and atomics, so a lane
// spinning on a `volatile` flag that a sibling thread sets never let that sibling run; a GPU
// (every thread scheduled independently since Volta) gets past it.
#include <vector>

#include "prepass_rmw.hpp"
#include "prepass_tokens.hpp"

namespace cugrade::cpu {

/// Appends, for each `while (...)` inside `bodies` (the device-only functions' bodies) whose body
/// is empty (`;` or `{}`), the edit that puts ::cugrade_cpu::yield_thread() in it. The `while` that
/// ends a `do ... while (...);` is left alone, but a `do {} while (...);` gets the yield in its
/// empty `{}`.
void yield_in_spin_waits(const TokenView& tokens, const std::vector<TokenRange>& bodies, std::vector<Edit>& edits);

}  // namespace cugrade::cpu
