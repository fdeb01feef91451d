#pragma once
// Block barriers and warp intrinsics. The CUDA threads of a block are fibers of one worker
// thread; a barrier suspends the fiber until every thread it waits for has arrived
// (executor/scheduler.cpp). Each call records its source line, so a divergence message can say
// which __syncthreads() each thread is waiting at.
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "context.hpp"

namespace cugrade_cpu {

/// What a block barrier also computes over the block's predicates.
enum class BarrierReduce { none, count, all, any };

/// Waits until every thread of the block arrives; returns the reduction of the predicates.
int block_barrier(BarrierReduce reduce, int predicate, const std::source_location& where);

/// The values the lanes of a warp deposited in one warp-level call.
struct WarpSlots {
  std::uint64_t value[32];
  unsigned members;   ///< lanes that took part (the mask, less lanes that do not exist)
  unsigned existing;  ///< lanes the warp has (fewer than 32 in a block's last, partial warp)
};

/// Deposits `value`, waits for the lanes of `mask`, and returns every lane's value; the result
/// stays valid until this lane's next warp-level call.
const WarpSlots& warp_exchange(unsigned mask, std::uint64_t value, const char* intrinsic,
                               const std::source_location& where);

/// The lanes of the current warp that reach this call `where` together, as a GPU's divergent
/// branch runs them: the lanes that exited, or wait at a barrier, a warp intrinsic or another
/// call site, are not among them.
unsigned active_lanes(const std::source_location& where);

/// Lets the other threads of the block run (spin-waits, failed atomicCAS, __nanosleep).
void yield_thread();

/// Passes of while loops on this worker thread (spin_check).
inline thread_local unsigned spin_passes = 0;

/// The first statement of every braced while and do-while body in device code (the pre-pass's
/// prepass_spin.cpp): every 1024th pass yields, so that a spin-wait whose body never yields lets
/// the thread it waits for run. Nothing at compile time (a constexpr function's loop).
constexpr void spin_check() {
  if (std::is_constant_evaluated()) return;
  if ((++spin_passes & 1023u) == 0 && current_thread) yield_thread();
}

/// Ends the kernel with a launch failure carrying `message` (used by __trap).
[[noreturn]] void fail_kernel(const char* message);

template <class T> std::uint64_t to_bits(const T& v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "warp shuffles move values of at most 8 bytes, as in CUDA");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T> T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
/// The exchanged value of lane `src`. A lane the block does not have (past the end of a partial
/// warp, e.g. in a block of 16 threads) reads as zero bits, as measured on an H100, where such
/// lanes contribute 0 to a shuffle reduction. A lane that exists but took no part gives the
/// caller's own value (CUDA leaves that undefined; the caller's value is the usual hardware result).
template <class T> T lane_value(const WarpSlots& slots, unsigned src, T own) {
  if (src < 32 && (slots.members >> src & 1u)) return from_bits<T>(slots.value[src]);
  if (src < 32 && !(slots.existing >> src & 1u)) return from_bits<T>(0);
  return own;
}

}  // namespace cugrade_cpu

#define CUGRADE_CPU_HERE const std::source_location& where = std::source_location::current()

/// Block-wide barrier.
inline void __syncthreads(CUGRADE_CPU_HERE) {
  cugrade_cpu::block_barrier(cugrade_cpu::BarrierReduce::none, 0, where);
}
/// Barrier; returns how many threads passed a non-zero predicate.
inline int __syncthreads_count(int predicate, CUGRADE_CPU_HERE) {
  return cugrade_cpu::block_barrier(cugrade_cpu::BarrierReduce::count, predicate, where);
}
/// Barrier; non-zero when every thread's predicate is.
inline int __syncthreads_and(int predicate, CUGRADE_CPU_HERE) {
  return cugrade_cpu::block_barrier(cugrade_cpu::BarrierReduce::all, predicate, where);
}
/// Barrier; non-zero when any thread's predicate is.
inline int __syncthreads_or(int predicate, CUGRADE_CPU_HERE) {
  return cugrade_cpu::block_barrier(cugrade_cpu::BarrierReduce::any, predicate, where);
}
/// Warp barrier over the lanes of `mask`.
inline void __syncwarp(unsigned mask = 0xffffffffu, CUGRADE_CPU_HERE) {
  cugrade_cpu::warp_exchange(mask, 0, "__syncwarp", where);
}
/// Lanes of the warp currently executing (those that took the same branch to this call).
inline unsigned __activemask(CUGRADE_CPU_HERE) { return cugrade_cpu::active_lanes(where); }

/// Value of `var` in lane `src` (of a `width`-lane segment).
template <class T>
T __shfl_sync(unsigned mask, T var, int src, int width = warpSize, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, cugrade_cpu::to_bits(var), "__shfl_sync", where);
  unsigned lane = cugrade_cpu::context().lane, w = static_cast<unsigned>(width);
  return cugrade_cpu::lane_value(s, (lane & ~(w - 1)) + (static_cast<unsigned>(src) & (w - 1)), var);
}
/// Value of `var` in lane + delta (own value past the segment's end).
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, cugrade_cpu::to_bits(var), "__shfl_down_sync", where);
  unsigned lane = cugrade_cpu::context().lane, w = static_cast<unsigned>(width);
  return (lane & (w - 1)) + delta < w ? cugrade_cpu::lane_value(s, lane + delta, var) : var;
}
/// Value of `var` in lane - delta (own value before the segment's start).
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, cugrade_cpu::to_bits(var), "__shfl_up_sync", where);
  unsigned lane = cugrade_cpu::context().lane, w = static_cast<unsigned>(width);
  return (lane & (w - 1)) >= delta ? cugrade_cpu::lane_value(s, lane - delta, var) : var;
}
/// Value of `var` in lane ^ lane_mask.
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, cugrade_cpu::to_bits(var), "__shfl_xor_sync", where);
  unsigned lane = cugrade_cpu::context().lane, w = static_cast<unsigned>(width);
  unsigned src = lane ^ static_cast<unsigned>(lane_mask);
  return src < ((lane / w) + 1) * w ? cugrade_cpu::lane_value(s, src, var) : var;
}
/// Bit i set when lane i of `mask` has a non-zero predicate.
inline unsigned __ballot_sync(unsigned mask, int predicate, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, predicate != 0, "__ballot_sync", where);
  unsigned bits = 0;
  for (unsigned i = 0; i < 32; ++i)
    if ((s.members >> i & 1u) && s.value[i]) bits |= 1u << i;
  return bits;
}
/// Non-zero when any lane of `mask` has a non-zero predicate.
inline int __any_sync(unsigned mask, int predicate, CUGRADE_CPU_HERE) {
  return __ballot_sync(mask, predicate, where) != 0;
}
/// Non-zero when every lane of `mask` has a non-zero predicate.
inline int __all_sync(unsigned mask, int predicate, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, predicate != 0, "__all_sync", where);
  for (unsigned i = 0; i < 32; ++i)
    if ((s.members >> i & 1u) && !s.value[i]) return 0;
  return 1;
}
/// Sum over the lanes of `mask` (sm_80's __reduce_add_sync).
inline unsigned __reduce_add_sync(unsigned mask, unsigned value, CUGRADE_CPU_HERE) {
  const auto& s = cugrade_cpu::warp_exchange(mask, value, "__reduce_add_sync", where);
  unsigned sum = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (s.members >> i & 1u) sum += static_cast<unsigned>(s.value[i]);
  return sum;
}
