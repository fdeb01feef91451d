#pragma once
// What the pre-pass turns `k<<<grid, block, smem, stream>>>(args...)` into:
//   ::cugrade_cpu::launch(::cugrade_cpu::launch_config(grid, block, smem, stream), "k",
//                         [&](auto&&... a) { k(a...); }, args...)
// Why a lambda and not a function pointer: the call inside it resolves overloads and deduces a
// template kernel's arguments exactly as CUDA does for the launch; the arguments are evaluated
// once, copied (as CUDA copies them to the kernel's parameter space), and every CUDA thread
// calls the kernel on its own copy.
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "runtime_types.hpp"
#include "vector_types.hpp"

namespace cugrade_cpu {

/// The launch configuration between <<< and >>>.
struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
};

/// Builds a LaunchConfig from the 2 to 4 launch parameters.
inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                  cudaStream_t stream = nullptr) {
  return LaunchConfig{grid, block, shared_bytes, stream};
}

/// The name of a kernel launched as `text` (its source text, e.g. "reduce4<T, blockSize>") from a
/// function whose __PRETTY_FUNCTION__ is `enclosing`: the enclosing template's parameters are
/// replaced by their values ("reduce4<int, 256>"). The pointer stays valid for the program's life.
const char* kernel_name(const char* text, const char* enclosing);

/// Called first by every kernel (the pre-pass adds the call) with its __PRETTY_FUNCTION__, from
/// which messages name a template kernel's instantiation, whatever the launch wrote.
void kernel_signature(const char* pretty);

/// The kernel's unqualified name in a __PRETTY_FUNCTION__ with its template arguments
/// ("void ns::k(T*) [with T = int; int N = 4]" -> "k<int, 4>"), or null for a kernel that is no
/// template (the launch's text names it as well). The pointer stays valid for the program's life.
const char* name_from_signature(const char* pretty);

/// Runs `thread_body(closure)` as every CUDA thread of the grid (executor/executor.cpp).
/// Errors (launch limits, faults, barrier divergence) are recorded for cudaGetLastError.
void run_grid(const LaunchConfig& config, const char* kernel, void (*thread_body)(void*), void* closure);

/// Records the error CUDA reports when kernel argument `index` is a pointer no kernel may
/// dereference (host memory); returns false then.
bool check_pointer_argument(const char* kernel, int index, const void* pointer);

/// A kernel launch (see the file comment).
template <class Kernel, class... Args>
void launch(const LaunchConfig& config, const char* kernel, Kernel call, Args&&... args) {
  using Params = std::tuple<std::decay_t<Args>...>;
  Params params(std::forward<Args>(args)...);
  bool pointers_ok = true;
  int index = 0;
  std::apply([&](const auto&... p) {
    ((pointers_ok = pointers_ok && [&] {
        ++index;
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_pointer_v<P> && std::is_object_v<std::remove_pointer_t<P>>)
          return check_pointer_argument(kernel, index, static_cast<const void*>(p));
        return true;
      }()), ...);
  }, params);
  if (!pointers_ok) return;
  struct Closure {
    Kernel* call;
    const Params* params;
  } closure{&call, &params};
  run_grid(config, kernel, [](void* c) {
    auto* self = static_cast<Closure*>(c);
    Params mine = *self->params;  // each thread's own copy of the parameters
    std::apply(*self->call, mine);
  }, &closure);
}

}  // namespace cugrade_cpu
