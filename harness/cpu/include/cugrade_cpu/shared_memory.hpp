#pragma once
// Shared memory starts every block poisoned, so that a kernel reading what no thread of its block
// wrote gets a value chosen by the harness (CUGRADE_SHARED_POISON: every byte 0xFF, or 0x00
// in the run that tells uninitialised reads apart from races; harness/src/pipeline/schedule_race).
// The pre-pass (harness/cpu/prepass_shared.cpp) adds the calls below after each __shared__
// declaration: `__shared__ float t[32][33];` becomes
//   __shared__ float t[32][33]; ::cugrade_cpu::shared_declared(t, "t");
// in a function, and registers file-scope variables with register_file_scope_shared().
#include <cstddef>
#include <source_location>
#include <utility>

#include "context.hpp"

namespace cugrade_cpu {

/// Poisons a static __shared__ variable the first time a thread of the running block reaches
/// its declaration (later threads of the block share what it holds by then); no-op outside a
/// kernel.
void declare_shared(void* address, std::size_t bytes, const char* name, const std::source_location& where);

/// Notes that the running kernel declares its dynamic shared memory as `name` (for the message
/// that names the kernel and the array when a read of it depends on the poison).
void declare_dynamic_shared(const char* name, const std::source_location& where);

/// A file-scope __shared__ variable: where this worker's copy is, and how large it is.
using SharedExtent = std::pair<void*, std::size_t>;

/// Registers a file-scope __shared__ variable (at static initialisation); every block start
/// poisons the worker's copy. `extent` runs on the worker thread, so it finds that thread's copy.
bool register_file_scope_shared(SharedExtent (*extent)(), const char* name,
                                const std::source_location& where = std::source_location::current());

/// The address and size of any variable (const and volatile ones too).
template <class T> SharedExtent shared_extent(T& variable) {
  return {const_cast<void*>(static_cast<const volatile void*>(&variable)), sizeof(T)};
}

/// What the pre-pass inserts after a __shared__ declaration inside a function.
template <class T>
void shared_declared(T& variable, const char* name,
                     const std::source_location& where = std::source_location::current()) {
  auto [address, bytes] = shared_extent(variable);
  declare_shared(address, bytes, name, where);
}

/// The block's dynamic shared memory declared as `name` (`extern __shared__ T name[];` in a
/// function).
template <class T>
T* declared_dynamic_shared(const char* name, const std::source_location& where = std::source_location::current()) {
  declare_dynamic_shared(name, where);
  return dynamic_shared<T>();
}

}  // namespace cugrade_cpu
