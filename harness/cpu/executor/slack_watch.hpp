#pragma once
// Who wrote into an allocation's slack (its alignment padding, which no guard page covers): the
// canary tells only after the kernel that a write happened, so the launch runs again, watched,
// in a forked copy of the runner.
#include <optional>

#include "block_runner.hpp"
#include "memory_registry.hpp"

namespace cugrade_cpu {

/// The access that damaged a slack: the instruction and the CUDA thread that ran it.
struct SlackWrite {
  const void* pc = nullptr;
  uint3 thread_idx{};
  uint3 block_idx{};
};

/// Runs the launch `shape` again in a forked child, one block at a time from the last, with the
/// page holding `damage`'s slack protected: each access to that page is single-stepped, and the
/// first after which the slack differs is the write. Nothing of the child's run reaches this
/// process. Empty when it is not found within a second (a block that waits for another, a fork
/// the sandbox refuses).
std::optional<SlackWrite> find_slack_write(const GridShape& shape, const SlackDamage& damage);

}  // namespace cugrade_cpu
