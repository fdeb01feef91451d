#pragma once
// Fiber stacks for one worker thread, reused from block to block (a grid of thousands of blocks
// would otherwise map and unmap a stack per CUDA thread per block). Each stack has a PROT_NONE
// guard page below it, so a CUDA thread that overflows its stack faults instead of silently
// overwriting its neighbour.
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace cugrade_cpu {

/// A worker's stacks.
class StackPool {
 public:
  /// Stacks of `bytes` each (plus one guard page).
  explicit StackPool(std::size_t bytes) : bytes_(bytes) {}
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  /// A free stack, mapped on first use.
  boost::context::stack_context take();
  /// Returns a stack for reuse.
  void give_back(boost::context::stack_context stack) { free_.push_back(stack); }
  /// Bytes of each stack.
  std::size_t stack_bytes() const { return bytes_; }

 private:
  std::size_t bytes_;
  std::vector<boost::context::stack_context> free_;
  std::vector<void*> mapped_;
};

/// True when `address` lies in the guard page of any fiber stack of any pool.
bool is_stack_guard(const void* address);

/// The allocator handle Boost.Context copies into each fiber.
struct PooledStack {
  StackPool* pool;
  boost::context::stack_context allocate() { return pool->take(); }
  void deallocate(boost::context::stack_context& stack) { pool->give_back(stack); }
};

}  // namespace cugrade_cpu
