#pragma once
// CUDA's atomic functions on global and shared memory. Blocks run concurrently on worker
// threads, so these are real atomics (std::atomic_ref); the overloads are CUDA's non-template
// ones so `atomicAdd(&unsigned_counter, 1)` converts its argument exactly as in CUDA.
#include <atomic>

#include "sync.hpp"

namespace cugrade_cpu {
/// Counts an atomicExch or a successful atomicCAS of the running thread: such a thread may hold a
/// lock, and its non-atomic updates of global memory are not called a race (read_modify_write.hpp).
inline void note_exchange() {
  if (current_thread) ++current_thread->exchanges;
}
/// Atomically replaces *p by op(*p, v); returns the old value.
template <class T, class Op> T atomic_update(T* p, T v, Op op) {
  std::atomic_ref<T> ref(*p);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, op(old, v), std::memory_order_seq_cst)) {
  }
  return old;
}
}  // namespace cugrade_cpu

#define CUGRADE_CPU_ATOMIC(name, T, expr) \
  inline T name(T* p, T v) { return cugrade_cpu::atomic_update(p, v, [](T a, T b) { return expr; }); }
#define CUGRADE_CPU_ATOMIC_INT(T)                                         \
  inline T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); } \
  inline T atomicSub(T* p, T v) { return std::atomic_ref<T>(*p).fetch_sub(v); } \
  inline T atomicExch(T* p, T v) { cugrade_cpu::note_exchange(); return std::atomic_ref<T>(*p).exchange(v); } \
  inline T atomicAnd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_and(v); } \
  inline T atomicOr(T* p, T v) { return std::atomic_ref<T>(*p).fetch_or(v); }   \
  inline T atomicXor(T* p, T v) { return std::atomic_ref<T>(*p).fetch_xor(v); } \
  CUGRADE_CPU_ATOMIC(atomicMin, T, b < a ? b : a)                          \
  CUGRADE_CPU_ATOMIC(atomicMax, T, a < b ? b : a)                          \
  /** Compare-and-swap; a failed one lets the block's other threads run, since it is usually */ \
  /** a spin-wait for one of them. */                                      \
  inline T atomicCAS(T* p, T compare, T v) {                               \
    if (std::atomic_ref<T>(*p).compare_exchange_strong(compare, v))        \
      cugrade_cpu::note_exchange();                                        \
    else if (cugrade_cpu::current_thread)                                  \
      cugrade_cpu::yield_thread();                                         \
    return compare;                                                        \
  }
CUGRADE_CPU_ATOMIC_INT(int)
CUGRADE_CPU_ATOMIC_INT(unsigned int)
CUGRADE_CPU_ATOMIC_INT(unsigned long long)
CUGRADE_CPU_ATOMIC(atomicMin, long long, b < a ? b : a)
CUGRADE_CPU_ATOMIC(atomicMax, long long, a < b ? b : a)
inline float atomicAdd(float* p, float v) { return std::atomic_ref<float>(*p).fetch_add(v); }
inline double atomicAdd(double* p, double v) { return std::atomic_ref<double>(*p).fetch_add(v); }
inline float atomicExch(float* p, float v) {
  cugrade_cpu::note_exchange();
  return std::atomic_ref<float>(*p).exchange(v);
}
CUGRADE_CPU_ATOMIC(atomicMin, float, fminf(a, b))
CUGRADE_CPU_ATOMIC(atomicMax, float, fmaxf(a, b))
/// ((old >= v) ? 0 : old + 1), as CUDA's atomicInc.
CUGRADE_CPU_ATOMIC(atomicInc, unsigned int, a >= b ? 0u : a + 1u)
/// ((old == 0 || old > v) ? v : old - 1), as CUDA's atomicDec.
CUGRADE_CPU_ATOMIC(atomicDec, unsigned int, (a == 0u || a > b) ? b : a - 1u)
#undef CUGRADE_CPU_ATOMIC_INT
#undef CUGRADE_CPU_ATOMIC

// Scope variants: one block runs on one worker thread, so every scope is the same here.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicExch_block atomicExch
#define atomicMin_block atomicMin
#define atomicMax_block atomicMax
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS

/// Orders memory accesses (all scopes are one machine here).
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
/// Sleeps: lets the block's other threads run instead.
inline void __nanosleep(unsigned int) {
  if (cugrade_cpu::current_thread) cugrade_cpu::yield_thread();
}
/// Aborts the kernel with a launch failure, as CUDA's __trap.
[[noreturn]] inline void __trap() { cugrade_cpu::fail_kernel("the kernel called __trap()"); }
