#pragma once
// Non-atomic read-modify-writes of global memory (`*out += x`, `hist[bin]++`) by several threads
// of one launch. Why: on the CPU backend each `+=` runs to its end before another thread's, so a
// reduction that adds every block's sum into `*out` without atomicAdd gets the right answer here,
// while a GPU loses updates. The pre-pass (harness/cpu/prepass_rmw.cpp) rewrites such updates in
// device code, `out[i] += v` into `::cugrade_cpu::rmw(out[i]) += v` and `hist[b]++` into
// `::cugrade_cpu::rmw(hist[b])++`, and the executor (executor/global_rmw.cpp) remembers which
// thread last updated each global address in the launch: a second thread updating it, with no
// __syncthreads() of their block between the two, ends the kernel with a message naming both.
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <type_traits>
#include <utility>

namespace cugrade_cpu {

/// The address range that holds every global allocation of the running launch (set at each
/// launch; empty outside one). One comparison tells a local or shared address apart from most
/// global ones, so a `+=` on anything else costs almost nothing.
struct GlobalSpan {
  std::uintptr_t begin = 0;
  std::uintptr_t bytes = 0;  ///< 0: no launch, or no global memory to watch
};
extern constinit GlobalSpan global_span;

/// Notes a non-atomic update (`op`: "+=", "++", ...) of `size` bytes at `address` by the running
/// CUDA thread; ends the kernel when another thread of the launch updated it too (see above).
void note_global_update(const void* address, std::size_t size, const char* op, const std::source_location& where);

/// What the pre-pass wraps the updated lvalue in: each operator does the update, after noting
/// it when the address may be global memory. Only arithmetic values of 4 bytes or more are
/// watched: a class (a vector type, cuda::atomic) has operators of its own, and 1- and 2-byte
/// elements share a 4-byte word with their neighbours in the table.
template <class T> class Update {
 public:
  constexpr Update(T& target, const std::source_location& where) : target_(target), where_(where) {}

#pragma GCC diagnostic push
// `volatile float* s; s[i] += v;` is the student's C++ (deprecated since C++20). Its value is not
// returned: g++ warns at the student's line when a volatile lvalue a call returns is discarded.
#pragma GCC diagnostic ignored "-Wvolatile"
#define CUGRADE_CPU_COMPOUND(op)                                         \
  template <class V> constexpr decltype(auto) operator op(V&& value) const { \
    note(#op);                                                            \
    if constexpr (std::is_volatile_v<T>)                                  \
      target_ op std::forward<V>(value);                                  \
    else                                                                  \
      return target_ op std::forward<V>(value);                           \
  }
  CUGRADE_CPU_COMPOUND(+=)
  CUGRADE_CPU_COMPOUND(-=)
  CUGRADE_CPU_COMPOUND(*=)
  CUGRADE_CPU_COMPOUND(/=)
  CUGRADE_CPU_COMPOUND(%=)
  CUGRADE_CPU_COMPOUND(^=)
  CUGRADE_CPU_COMPOUND(<<=)
  CUGRADE_CPU_COMPOUND(>>=)
#undef CUGRADE_CPU_COMPOUND
  constexpr decltype(auto) operator++() const {
    note("++");
    if constexpr (std::is_volatile_v<T>)
      ++target_;
    else
      return ++target_;
  }
  constexpr decltype(auto) operator--() const {
    note("--");
    if constexpr (std::is_volatile_v<T>)
      --target_;
    else
      return --target_;
  }
  constexpr decltype(auto) operator++(int) const { return note("++"), target_++; }
  constexpr decltype(auto) operator--(int) const { return note("--"), target_--; }
#pragma GCC diagnostic pop

 private:
  constexpr void note(const char* op) const {
    using Value = std::remove_cv_t<T>;
    if (std::is_constant_evaluated()) return;  // a constexpr function evaluated by the compiler
    if constexpr (std::is_arithmetic_v<Value> && sizeof(Value) >= 4) {
      const auto address = reinterpret_cast<std::uintptr_t>(&target_);
      if (address - global_span.begin < global_span.bytes)
        note_global_update(const_cast<const void*>(static_cast<const volatile void*>(&target_)), sizeof(Value), op,
                           where_);
    }
  }

  T& target_;
  std::source_location where_;
};

/// The pre-pass's wrapper of an updated lvalue (see the file comment).
template <class T>
constexpr Update<T> rmw(T& target, const std::source_location& where = std::source_location::current()) {
  return Update<T>(target, where);
}
/// A class's prvalue (an accessor returning a proxy by value): its own operators do the update.
template <class T>
  requires(!std::is_lvalue_reference_v<T>)
constexpr T&& rmw(T&& target, const std::source_location& = std::source_location::current()) {
  return static_cast<T&&>(target);
}

}  // namespace cugrade_cpu
