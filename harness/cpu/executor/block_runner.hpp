#pragma once
// Runs one thread block: every CUDA thread is a fiber on the calling worker thread, resumed in
// turn until it finishes or waits (at __syncthreads, a warp intrinsic, a failed atomicCAS).
// A pass that resumes nobody while some threads have not finished is a deadlock, and the
// waiting threads say which one: barrier divergence, warp divergence or a mixed wait.
#include <boost/context/fiber.hpp>

#include <csetjmp>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "cugrade_cpu/context.hpp"
#include "cugrade_cpu/runtime_types.hpp"
#include "cugrade_cpu/sync.hpp"
#include "guarded_shared.hpp"
#include "stack_pool.hpp"

namespace cugrade_cpu {

/// What a grid launch shares with each of its blocks.
struct GridShape {
  const char* kernel = "";
  dim3 grid, block;
  std::size_t shared_bytes = 0;
  void (*thread_body)(void*) = nullptr;
  void* closure = nullptr;
  bool reverse = false;  ///< CUGRADE_CPU_SCHEDULE=reverse: resume threads last to first
  unsigned char poison = 0xFF;  ///< every byte of shared memory at each block start
};

/// Why a block stopped early.
struct BlockFailure {
  cudaError_t error = cudaErrorLaunchFailure;
  std::string message;
};

/// One worker thread's block executor (reused for every block that worker runs).
class BlockRunner {
 public:
  explicit BlockRunner(StackPool& stacks) : stacks_(stacks) {}

  /// Runs block `block_idx` to completion; the failure, if any, is the kernel's error.
  std::optional<BlockFailure> run(const GridShape& shape, uint3 block_idx);

  // Called by the intrinsics of the fiber running on this worker (sync.hpp).
  int block_barrier(BarrierReduce reduce, int predicate, const std::source_location& where);
  const WarpSlots& warp_exchange(unsigned mask, std::uint64_t value, const char* intrinsic,
                                 const std::source_location& where);
  unsigned active_lanes(const std::source_location& where);
  void yield();
  void declare_shared(void* address, std::size_t bytes, const char* name, const std::source_location& where);
  void declare_dynamic_shared(const char* name, const std::source_location& where);
  [[noreturn]] void fail(std::string message);

  /// The kernel of the block being run: as the kernel itself names its instantiation once a
  /// thread has started (`reduce4<int, 256>`), else as the launch wrote it.
  const char* kernel() const { return signature_name_ ? signature_name_ : shape_ ? shape_->kernel : ""; }
  /// Notes the running kernel's __PRETTY_FUNCTION__ (the pre-pass has every kernel call
  /// kernel_signature() first); the block's messages name the kernel by it from then on.
  void note_signature(const char* pretty);
  /// The runner of the block on this worker thread, or null.
  static BlockRunner* current();

 private:
  enum class State { ready, waiting, done };
  struct Thread {
    ThreadContext context;
    unsigned warp = 0;             ///< linear thread index / 32
    boost::context::fiber handle;  ///< the suspended fiber (empty while it runs)
    boost::context::fiber back;    ///< inside the fiber: where to switch back to
    State state = State::ready;
    const std::uint64_t* generation = nullptr;  ///< waiting: released when *generation changes
    std::uint64_t waited_generation = 0;
    const char* waits_at = "";                  ///< waiting: the intrinsic's name
    std::source_location where;
    bool parked = false;        ///< at __activemask() (park_site), until its lanes are known
    bool resolved = false;      ///< parked no more: another lane found the mask (active_mask)
    unsigned active_mask = 0;   ///< what __activemask() returns once resolved
    std::source_location park_site;
  };
  struct Barrier {
    int arrived = 0;
    std::uint64_t generation = 0;
    int accumulator = 0, result = 0;
    std::source_location site;
  };
  struct Warp {
    unsigned existing = 0, arrived = 0, round = 0;
    std::uint64_t generation = 0;
    WarpSlots pending{}, published{};
  };

  void wait(const std::uint64_t* generation, const char* intrinsic, const std::source_location& where);
  /// Whether every lane of `me`'s warp but `me` has exited, waits (a barrier, a warp intrinsic)
  /// or is parked at an __activemask(): none is left that could still reach `me`'s call.
  bool warp_settled(const Thread& me) const;
  void schedule();
  std::string describe_stall() const;
  std::string thread_name(const Thread& t) const;
  void abandon();
  /// The error for a fault at byte `offset` of the block's dynamic shared memory (a guard page).
  BlockFailure describe_shared_overrun(std::ptrdiff_t offset, bool write) const;

  StackPool& stacks_;
  const GridShape* shape_ = nullptr;
  std::vector<Thread> threads_;
  std::vector<Warp> warps_;
  GuardedShared dynamic_shared_;
  const char* dynamic_name_ = nullptr;    ///< the extern __shared__ array's name, once declared
  std::source_location dynamic_where_;    ///< and where
  std::vector<void*> poisoned_;      ///< static __shared__ variables this block has poisoned
  bool dynamic_declared_ = false;    ///< an extern __shared__ declaration of this block was logged
  const char* signature_ = nullptr;       ///< the __PRETTY_FUNCTION__ last noted
  const char* signature_name_ = nullptr;  ///< the kernel's name read from it (null: none)
  Barrier barrier_;
  bool restart_sweep_ = false;  ///< a barrier was just released: the next sweep starts at the first thread
  Thread* running_ = nullptr;
  std::optional<BlockFailure> failure_;
  sigjmp_buf fault_jump_;
};

}  // namespace cugrade_cpu
