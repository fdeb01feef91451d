// Kernel launches are intercepted with the linker's --wrap: the submission is linked with
//   -Xlinker --wrap=__cudaLaunchKernel -Xlinker --wrap=__cudaLaunchKernel_ptsz
//   -Xlinker --wrap=cudaLaunchKernel
// so every reference to X (in the student's objects and the reference solutions) binds to
// __wrap_X below, which notes the kernel and calls the real X (__real_X).
// Why these three: since CUDA 12.x/13, nvcc turns `k<<<g, b>>>(...)` into a call of
// __cudaLaunchKernel (a cudaKernel_t handle, not the function pointer), or of
// __cudaLaunchKernel_ptsz under --default-stream per-thread; cudaLaunchKernel is what a student
// calls by hand (and what older toolkits emitted). cudaLaunchKernelEx, cooperative launches and
// graphs are only counted (at the end): an error is still reported, only without the kernel's name.
#include "launch_tracking.hpp"

#include "entry_range.hpp"
#include "launch_rules.hpp"

#include <cuda_runtime.h>
#include <cxxabi.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace cugrade::runner {
namespace {

std::atomic<const void*> last_kernel{nullptr};
std::atomic<long> launches{0};  ///< kernel launches since the reset
std::atomic<long long> most_threads{0};  ///< the most threads one accepted launch since the reset had

/// What the launches since the reset used of shared memory (under kernels_mutex).
enum class SharedUse { none_launched, no, unknown, yes };
SharedUse shared_use = SharedUse::none_launched;

/// What is known of a kernel, looked up once at its first launch. Why at launch time and not when
/// an error is reported: after a sticky error the runtime may refuse every call, including the
/// name lookup, and that is exactly when the name is wanted.
struct KernelFacts {
  std::string name;               ///< demangled; empty when the lookup failed
  long long static_shared = -1;   ///< its static shared memory in bytes; -1 when not (or not yet) read
};
std::mutex kernels_mutex;  ///< guards kernels() and shared_use
std::unordered_map<const void*, KernelFacts>& kernels() {
  static std::unordered_map<const void*, KernelFacts> table;
  return table;
}

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> plain(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                               std::free);
  return status == 0 && plain ? std::string(plain.get()) : std::string(name);
}

bool noting_shared_memory() {
  static const bool asked = [] {
    const char* value = std::getenv(note_shared_memory_variable);
    return value && std::string(value) == "1";
  }();
  return asked;
}

/// The last launch the runtime refused since the reset (under kernels_mutex): its error and what
/// it broke, in launch_rules.hpp's words.
cudaError_t refused_error = cudaSuccess;
std::string refused_words;

/// The name a message gives a kernel: its demangled name without the parameter list.
std::string short_name(std::string name) {
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    else if (name[i] == '(' && --depth == 0) return name.substr(0, i);
  }
  return name;
}

/// What this device allows a launch of a kernel with `attributes` (nullptr: unknown): the
/// device's limits, and the dynamic shared memory the kernel may take now. Read only after a
/// refusal: each call costs a driver query.
LaunchCeilings ceilings_for(const cudaFuncAttributes* attributes) {
  LaunchCeilings c;
  int device = 0, value = 0;
  cudaGetDevice(&device);
  const auto read = [&](cudaDeviceAttr attribute, unsigned& into) {
    if (cudaDeviceGetAttribute(&value, attribute, device) == cudaSuccess && value > 0) into = static_cast<unsigned>(value);
  };
  read(cudaDevAttrMaxThreadsPerBlock, c.max_threads_per_block);
  read(cudaDevAttrMaxBlockDimX, c.max_block[0]);
  read(cudaDevAttrMaxBlockDimY, c.max_block[1]);
  read(cudaDevAttrMaxBlockDimZ, c.max_block[2]);
  read(cudaDevAttrMaxGridDimX, c.max_grid[0]);
  read(cudaDevAttrMaxGridDimY, c.max_grid[1]);
  read(cudaDevAttrMaxGridDimZ, c.max_grid[2]);
  if (attributes) c.max_dynamic_shared_bytes = static_cast<std::size_t>(attributes->maxDynamicSharedSizeBytes);
  return c;
}

/// Why `kernel`'s launch was refused, when its shape says so: launch_rules.hpp's words, or the
/// registers its threads need beyond a block's (cudaErrorLaunchOutOfResources); empty otherwise.
std::string refusal_words(const void* kernel, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes) {
  const LaunchShape shape{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, dynamic_shared_bytes};
  cudaFuncAttributes attributes{};
  const bool known = cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess;
  std::string words = launch_fault_words(shape, ceilings_for(known ? &attributes : nullptr));
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (words.empty() && known && threads > static_cast<unsigned long long>(attributes.maxThreadsPerBlock))
    words = std::to_string(threads) + " threads per block; with its " + std::to_string(attributes.numRegs) +
            " registers per thread a block of it may hold at most " + std::to_string(attributes.maxThreadsPerBlock) +
            " threads";
  return words;
}

/// Notes a launch the runtime accepted (its threads), or refused with `error`, and why.
cudaError_t note_result(cudaError_t error, const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes) {
  if (error == cudaSuccess) {
    const long long threads = 1ll * grid.x * grid.y * grid.z * block.x * block.y * block.z;
    long long seen = most_threads.load(std::memory_order_relaxed);
    while (threads > seen && !most_threads.compare_exchange_weak(seen, threads, std::memory_order_relaxed)) {
    }
    return error;
  }
  std::string words = refusal_words(kernel, grid, block, shared_bytes);
  std::lock_guard lock(kernels_mutex);
  auto it = kernels().find(kernel);
  const std::string name = it == kernels().end() ? std::string() : short_name(it->second.name);
  refused_error = error;
  refused_words = words.empty() ? std::string() : "kernel `" + (name.empty() ? std::string("?") : name) +
                                                      "` was launched with " + words;
  return error;
}

void count_unnamed_launch() { launches.fetch_add(1, std::memory_order_relaxed); }

void note_launch(const void* kernel, std::size_t dynamic_shared_bytes) {
  count_launch_in_entry_range();
  launches.fetch_add(1, std::memory_order_relaxed);
  last_kernel.store(kernel, std::memory_order_relaxed);
  std::lock_guard lock(kernels_mutex);
  auto [it, inserted] = kernels().try_emplace(kernel);
  KernelFacts& facts = it->second;
  if (inserted) {
    const char* name = nullptr;
    // cudaFuncGetName accepts a __global__ function's address or a cudaKernel_t handle.
    if (cudaFuncGetName(&name, kernel) == cudaSuccess && name) facts.name = demangle(name);
    else cudaGetLastError();  // a failed lookup must not look like the student's error
    if (noting_shared_memory()) {
      cudaFuncAttributes attributes{};
      if (cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess)
        facts.static_shared = static_cast<long long>(attributes.sharedSizeBytes);
      else
        cudaGetLastError();
    }
  }
  const SharedUse use = dynamic_shared_bytes > 0 || facts.static_shared > 0 ? SharedUse::yes
                        : facts.static_shared < 0                           ? SharedUse::unknown
                                                                            : SharedUse::no;
  if (use > shared_use) shared_use = use;
}

}  // namespace

void reset_last_kernel() {
  last_kernel.store(nullptr, std::memory_order_relaxed);
  launches.store(0, std::memory_order_relaxed);
  most_threads.store(0, std::memory_order_relaxed);
  std::lock_guard lock(kernels_mutex);
  shared_use = SharedUse::none_launched;
  refused_error = cudaSuccess;
  refused_words.clear();
}

long launches_since_reset() { return launches.load(std::memory_order_relaxed); }

std::string fault_since_reset(int& error) {
  error = 0;
  return {};
}

long long most_threads_since_reset() { return most_threads.load(std::memory_order_relaxed); }

std::string launch_refusal(int error) {
  std::lock_guard lock(kernels_mutex);
  return error == static_cast<int>(refused_error) ? refused_words : std::string();
}

std::string shared_memory_used() {
  std::lock_guard lock(kernels_mutex);
  switch (shared_use) {
    case SharedUse::yes: return "yes";
    case SharedUse::unknown: return "";
    default: return "no";
  }
}

std::string last_kernel_name() {
  const void* kernel = last_kernel.load(std::memory_order_relaxed);
  if (!kernel) return {};
  std::lock_guard lock(kernels_mutex);
  auto it = kernels().find(kernel);
  return it == kernels().end() ? std::string() : it->second.name;
}

}  // namespace cugrade::runner

extern "C" {
// Why weak: a link line that wraps only some of these symbols leaves the other __real_X
// unresolved; weak, it stays null and links, and its __wrap_X is then never called either.
__attribute__((weak)) cudaError_t __real___cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**,
                                                             size_t, cudaStream_t);
__attribute__((weak)) cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t, dim3, dim3,
                                                                  void**, size_t, cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, size_t,
                                                           cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**);
__attribute__((weak)) cudaError_t __real_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t*, const void*, void**);
__attribute__((weak)) cudaError_t __real_cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t,
                                                                      cudaStream_t);
__attribute__((weak)) cudaError_t __real_cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);

/// What `k<<<grid, block, smem, stream>>>(...)` calls once the link wraps __cudaLaunchKernel.
cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                      size_t shared_mem, cudaStream_t stream) {
  cugrade::runner::note_launch(kernel, shared_mem);
  return cugrade::runner::note_result(__real___cudaLaunchKernel(kernel, grid, block, args, shared_mem, stream),
                                      kernel, grid, block, shared_mem);
}

/// The same under --default-stream per-thread.
cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                           void** args, size_t shared_mem, cudaStream_t stream) {
  cugrade::runner::note_launch(kernel, shared_mem);
  return cugrade::runner::note_result(
      __real___cudaLaunchKernel_ptsz(kernel, grid, block, args, shared_mem, stream), kernel, grid, block, shared_mem);
}

/// An explicit cudaLaunchKernel call.
cudaError_t __wrap_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                    size_t shared_mem, cudaStream_t stream) {
  cugrade::runner::note_launch(func, shared_mem);
  return cugrade::runner::note_result(__real_cudaLaunchKernel(func, grid, block, args, shared_mem, stream), func,
                                      grid, block, shared_mem);
}

// Launches the wraps above do not name, only counted: a call whose kernels run through
// cudaLaunchKernelEx, a cooperative launch or a graph still launched kernels
// (host_work.hpp: "computed without a kernel" is said only where none was launched).
cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  cugrade::runner::count_unnamed_launch();
  return __real_cudaLaunchKernelExC(config, func, args);
}
cudaError_t __wrap_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  cugrade::runner::count_unnamed_launch();
  return __real_cudaLaunchKernelExC_ptsz(config, func, args);
}
cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared_mem,
                                               cudaStream_t stream) {
  cugrade::runner::count_unnamed_launch();
  return __real_cudaLaunchCooperativeKernel(func, grid, block, args, shared_mem, stream);
}
cudaError_t __wrap_cudaGraphLaunch(cudaGraphExec_t graph, cudaStream_t stream) {
  cugrade::runner::count_unnamed_launch();
  return __real_cudaGraphLaunch(graph, stream);
}
}
