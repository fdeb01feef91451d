#include "block_runner.hpp"

#include <cstring>
#include <memory>
#include <mutex>
#include <utility>

#include "cugrade_cpu/launch.hpp"
#include "error_state.hpp"
#include "fault_handler.hpp"
#include "shared_poison.hpp"
#include "source_site.hpp"

namespace cugrade_cpu {

constinit thread_local ThreadContext* current_thread = nullptr;

namespace {

constinit thread_local BlockRunner* this_worker = nullptr;

// Points the worker at `t`'s context and copies its built-in variables (context.hpp).
void enter_thread(ThreadContext* t) {
  current_thread = t;
  threadIdx = t->thread_idx;
  blockIdx = t->block_idx;
}

// Fibers of an aborted block are never resumed again; their handles are kept here rather than
// destroyed, because destroying a suspended fiber unwinds it through the student's frames.
// Blocks on several workers may fail at once (a race on global memory fails every block that
// updates the address), so the list has a lock.
std::vector<boost::context::fiber>& abandoned() {
  static auto* list = new std::vector<boost::context::fiber>();
  return *list;
}
std::mutex abandoned_mutex;

}  // namespace

BlockRunner* BlockRunner::current() { return this_worker; }

std::optional<BlockFailure> BlockRunner::run(const GridShape& shape, uint3 block_idx) {
  shape_ = &shape;
  failure_.reset();
  barrier_ = Barrier{};
  restart_sweep_ = false;
  const unsigned bx = shape.block.x, by = shape.block.y, bz = shape.block.z;
  const unsigned n = bx * by * bz;
  // Why poison: shared memory starts with whatever the last block left; 0xFF bytes read as NaN
  // (or -1) make a read of never-written shared memory show up as a wrong answer at once, and a
  // second run with 0x00 bytes shows whether a result depends on it (shared_memory.hpp).
  // Static __shared__ variables are poisoned when the block first reaches their declaration.
  char* const dynamic_shared = dynamic_shared_.reset(shape.shared_bytes, shape.poison);
  dynamic_name_ = nullptr;
  poisoned_.clear();
  dynamic_declared_ = false;
  signature_ = signature_name_ = nullptr;
  poison_file_scope_shared(shape.poison, shape.kernel);
  if (shape.shared_bytes > 0 && shared_log_enabled())
    log_shared_use(shape.kernel, std::string("extern __shared__ memory of kernel ") + shape.kernel);
  warps_.assign((n + 31) / 32, Warp{});
  threads_.clear();
  threads_.resize(n);
  const std::uint64_t block_rank = block_idx.x + std::uint64_t{shape.grid.x} * (block_idx.y + std::uint64_t{shape.grid.y} * block_idx.z);
  for (unsigned i = 0; i < n; ++i) {
    Thread& t = threads_[i];
    t.context.grid_rank = block_rank * n + i;
    t.context.barriers = &barrier_.generation;
    t.context.thread_idx = uint3{i % bx, (i / bx) % by, i / (bx * by)};
    t.context.block_idx = block_idx;
    t.context.block_dim = shape.block;
    t.context.grid_dim = shape.grid;
    t.context.lane = i % 32;
    t.context.dynamic_shared = dynamic_shared;
    t.warp = i / 32;
    warps_[t.warp].existing |= 1u << (i % 32);
    t.handle = boost::context::fiber(std::allocator_arg, PooledStack{&stacks_},
                                     [this, &t](boost::context::fiber&& back) {
                                       t.back = std::move(back);
                                       try {
                                         shape_->thread_body(shape_->closure);
                                       } catch (...) {
                                         failure_ = BlockFailure{cudaErrorLaunchFailure,
                                             "kernel " + code_name(kernel()) +
                                                 " threw a C++ exception"};
                                       }
                                       t.state = State::done;
                                       return std::move(t.back);
                                     });
  }
  blockDim = shape.block;
  gridDim = shape.grid;
  this_worker = this;
  // A fault in student code (an out-of-bounds access hitting a guard page) lands here through
  // siglongjmp from the signal handler; the block's fibers are abandoned, not resumed.
  if (sigsetjmp(fault_jump_, 1) != 0) {
    disarm_fault_jump();
    if (const auto offset = dynamic_shared_.guard_offset(last_fault_address()))
      failure_ = describe_shared_overrun(*offset, last_fault_was_write());
    else
      failure_ = describe_fault(kernel(), running_ ? &running_->context : nullptr);
    abandon();
  } else {
    arm_fault_jump(&fault_jump_);
    schedule();
    disarm_fault_jump();
    if (failure_) abandon();
  }
  current_thread = nullptr;
  running_ = nullptr;
  this_worker = nullptr;
  return failure_;
}

void BlockRunner::schedule() {
  const std::size_t n = threads_.size();
  for (;;) {
    bool progress = false, all_done = true;
    for (std::size_t k = 0; k < n; ++k) {
      Thread& t = threads_[shape_->reverse ? n - 1 - k : k];
      if (t.state == State::done) continue;
      all_done = false;
      if (t.state == State::waiting && *t.generation == t.waited_generation) continue;
      t.state = State::ready;
      running_ = &t;
      enter_thread(&t.context);
      t.handle = std::move(t.handle).resume();
      current_thread = nullptr;
      running_ = nullptr;
      progress = true;
      if (failure_) return;
      if (restart_sweep_) {  // a barrier was released: every thread resumes in schedule order
        restart_sweep_ = false;
        break;
      }
    }
    if (all_done) return;
    if (!progress) {
      failure_ = BlockFailure{cudaErrorLaunchFailure, describe_stall()};
      return;
    }
  }
}

void BlockRunner::abandon() {
  // After a fault, the faulting thread's `back` still holds the scheduler context the fault
  // jumped out of: it must never be resumed or destroyed either.
  std::lock_guard lock(abandoned_mutex);
  for (Thread& t : threads_) {
    if (t.handle) abandoned().push_back(std::move(t.handle));
    if (t.back) abandoned().push_back(std::move(t.back));
  }
  threads_.clear();
}

void BlockRunner::wait(const std::uint64_t* generation, const char* intrinsic,
                       const std::source_location& where) {
  Thread& t = *running_;
  t.state = State::waiting;
  t.generation = generation;
  t.waited_generation = *generation;
  t.waits_at = intrinsic;
  t.where = where;
  t.back = std::move(t.back).resume();
}

void BlockRunner::yield() {
  Thread& t = *running_;
  t.back = std::move(t.back).resume();
}

void BlockRunner::fail(std::string message) {
  failure_ = BlockFailure{cudaErrorLaunchFailure, std::move(message)};
  Thread& t = *running_;
  t.back = std::move(t.back).resume();
  __builtin_unreachable();  // an aborted block's fibers are never resumed
}

int BlockRunner::block_barrier(BarrierReduce reduce, int predicate, const std::source_location& where) {
  Barrier& b = barrier_;
  if (b.arrived == 0) {
    b.site = where;
    b.accumulator = reduce == BarrierReduce::all ? 1 : 0;
  } else if (!same_site(b.site, where)) {
    const Thread* other = nullptr;
    for (const Thread& t : threads_)
      if (t.state == State::waiting && t.generation == &b.generation) other = &t;
    fail("barrier divergence in kernel " + code_name(kernel()) + ": " +
         thread_name(*running_) + " waits at __syncthreads() (" + site(where) + ") while " +
         (other ? thread_name(*other) + " waits" : std::string("others wait")) + " at __syncthreads() (" +
         site(b.site) + ")");
  }
  if (reduce == BarrierReduce::count) b.accumulator += predicate != 0;
  if (reduce == BarrierReduce::all) b.accumulator &= predicate != 0;
  if (reduce == BarrierReduce::any) b.accumulator |= predicate != 0;
  if (++b.arrived == static_cast<int>(threads_.size())) {
    b.result = b.accumulator;
    b.arrived = 0;
    ++b.generation;
    // Why yield: the last thread to arrive would otherwise run on past the barrier ahead of all
    // the others — thread n−1 in the forward order, thread 0 in the reverse one — so after every
    // barrier one thread ran first in BOTH orders, and a race only that thread sees (thread 0
    // reading partial sums the others have not written yet) gave the same wrong answer twice.
    // Yielding ends the sweep; the next one resumes every thread in the schedule's order.
    const int result = b.result;
    restart_sweep_ = true;
    yield();
    return result;
  }
  wait(&b.generation, "__syncthreads()", where);
  return b.result;
}

void BlockRunner::declare_shared(void* address, std::size_t bytes, const char* name,
                                 const std::source_location& where) {
  // A handful of variables per kernel: a linear search is the cheapest set.
  for (const void* p : poisoned_)
    if (p == address) return;
  poisoned_.push_back(address);
  std::memset(address, shape_->poison, bytes);
  if (shared_log_enabled())
    log_shared_use(shape_->kernel, describe_declaration(std::string("__shared__ ") + name, where));
}

void BlockRunner::declare_dynamic_shared(const char* name, const std::source_location& where) {
  if (dynamic_declared_) return;
  dynamic_declared_ = true;
  dynamic_name_ = name;
  dynamic_where_ = where;
  if (shared_log_enabled())
    log_shared_use(shape_->kernel, describe_declaration(std::string("extern __shared__ ") + name, where));
}

BlockFailure BlockRunner::describe_shared_overrun(std::ptrdiff_t offset, bool write) const {
  const std::string array = dynamic_name_ ? "extern __shared__ " + std::string(dynamic_name_) + " (" + site(dynamic_where_) + ")"
                                          : std::string("its extern __shared__ memory");
  std::string message = std::string("out-of-bounds __shared__ memory ") + (write ? "write" : "read") + " in kernel " +
                        code_name(kernel()) + (running_ ? " by " + thread_name(*running_) : std::string()) + ": ";
  const std::size_t bytes = dynamic_shared_.bytes();
  if (bytes == 0)
    message += array + " got 0 bytes from the launch: is the third <<<grid, block, bytes>>> parameter missing?";
  else
    message += "byte " + std::to_string(offset) + " of " + array + (offset < 0 ? ", before its start" : ", past the " +
               std::to_string(bytes) + " bytes the launch gave it (the third <<<grid, block, bytes>>> parameter)");
  return {cudaErrorIllegalAddress, message};
}

void BlockRunner::note_signature(const char* pretty) {
  if (pretty == signature_) return;  // every thread of the block notes the same literal
  signature_ = pretty;
  signature_name_ = name_from_signature(pretty);
  // The runner's "last kernel launched" names the instantiation too (once per block: cheap).
  if (signature_name_) note_kernel(signature_name_);
}

std::string BlockRunner::thread_name(const Thread& t) const {
  return thread_in_block(t.context.thread_idx, t.context.block_idx);
}

std::string BlockRunner::describe_stall() const {
  const std::string kernel = code_name(this->kernel());
  const Thread *at_barrier = nullptr, *at_warp = nullptr, *exited = nullptr;
  for (const Thread& t : threads_) {
    if (t.state == State::done && !exited) exited = &t;
    if (t.state != State::waiting) continue;
    if (t.generation == &barrier_.generation) {
      if (!at_barrier) at_barrier = &t;
    } else if (!at_warp) {
      at_warp = &t;
    }
  }
  if (at_barrier && !at_warp && exited)
    return "barrier divergence in kernel " + kernel + ": " + thread_name(*exited) +
           " exited while others wait at __syncthreads() (" + site(at_barrier->where) + ")";
  if (at_warp && !at_barrier) {
    const Warp& w = warps_[at_warp->warp];
    for (unsigned lane = 0; lane < 32; ++lane) {
      const Thread& t = threads_[at_warp->warp * 32 + lane];
      if ((w.round >> lane & 1u) && t.state == State::done)
        return "warp divergence in kernel " + kernel + ": " + thread_name(t) + " (lane " +
               std::to_string(lane) + " of warp " + std::to_string(at_warp->warp) +
               ") exited while other lanes of its warp wait at " + at_warp->waits_at + " (" +
               site(at_warp->where) + "); a warp-level call must be reached by every lane of its mask";
    }
  }
  if (at_barrier && at_warp)
    return "deadlock in kernel " + kernel + ": " + thread_name(*at_barrier) + " waits at __syncthreads() (" +
           site(at_barrier->where) + ") while " + thread_name(*at_warp) + " waits at " +
           at_warp->waits_at + " (" + site(at_warp->where) + ")";
  const Thread* any = at_barrier ? at_barrier : at_warp;
  return "deadlock in kernel " + kernel + ": no thread of the block can continue" +
         (any ? "; " + thread_name(*any) + " waits at " + any->waits_at + " (" + site(any->where) + ")"
              : std::string());
}

}  // namespace cugrade_cpu

constinit thread_local uint3 threadIdx{};
constinit thread_local uint3 blockIdx{};
constinit thread_local dim3 blockDim{};
constinit thread_local dim3 gridDim{};

// The intrinsics of sync.hpp, forwarded to the block running on this worker thread.
namespace cugrade_cpu {

int block_barrier(BarrierReduce reduce, int predicate, const std::source_location& where) {
  return BlockRunner::current()->block_barrier(reduce, predicate, where);
}

const WarpSlots& warp_exchange(unsigned mask, std::uint64_t value, const char* intrinsic,
                               const std::source_location& where) {
  return BlockRunner::current()->warp_exchange(mask, value, intrinsic, where);
}

unsigned active_lanes(const std::source_location& where) { return BlockRunner::current()->active_lanes(where); }

void yield_thread() { BlockRunner::current()->yield(); }

void kernel_signature(const char* pretty) {
  if (BlockRunner* runner = BlockRunner::current()) runner->note_signature(pretty);
}

void fail_kernel(const char* message) {
  BlockRunner* runner = BlockRunner::current();
  if (!runner) std::abort();
  runner->fail(std::string(message) + " in kernel " + code_name(runner->kernel()));
}

}  // namespace cugrade_cpu
