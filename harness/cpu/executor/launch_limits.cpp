#include "launch_limits.hpp"

#include <atomic>

#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"

namespace cugrade_cpu {
namespace {

std::atomic<std::size_t> dynamic_shared_limit{48 * 1024};

std::string dims(const dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

}  // namespace

const LaunchLimits& launch_limits() {
  static const LaunchLimits limits;
  return limits;
}

std::size_t max_dynamic_shared() { return dynamic_shared_limit.load(); }

void set_max_dynamic_shared(int bytes) {
  if (bytes >= 0 && static_cast<std::size_t>(bytes) <= launch_limits().optin_shared_bytes)
    dynamic_shared_limit.store(std::max<std::size_t>(static_cast<std::size_t>(bytes), 48 * 1024));
}

std::optional<LaunchRejection> check_launch(const LaunchConfig& c, const char* kernel) {
  const LaunchLimits& l = launch_limits();
  const std::string invalid = "invalid configuration argument: kernel " + code_name(kernel) + " was launched with ";
  const unsigned long long threads = 1ull * c.block.x * c.block.y * c.block.z;
  if (threads == 0 || 1ull * c.grid.x * c.grid.y * c.grid.z == 0)
    return LaunchRejection{cudaErrorInvalidConfiguration,
                           invalid + "grid " + dims(c.grid) + " and block " + dims(c.block) +
                               "; no dimension may be 0"};
  if (threads > l.max_threads_per_block)
    return LaunchRejection{cudaErrorInvalidConfiguration,
                           invalid + std::to_string(threads) + " threads per block (" + dims(c.block) +
                               "); a block has at most 1024 threads"};
  const unsigned block[3] = {c.block.x, c.block.y, c.block.z};
  const unsigned grid[3] = {c.grid.x, c.grid.y, c.grid.z};
  const char* axis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (block[i] > l.max_block[i])
      return LaunchRejection{cudaErrorInvalidConfiguration,
                             invalid + "blockDim." + axis[i] + " = " + std::to_string(block[i]) +
                                 "; the limit is " + std::to_string(l.max_block[i])};
    if (grid[i] > l.max_grid[i])
      return LaunchRejection{cudaErrorInvalidConfiguration,
                             invalid + "gridDim." + axis[i] + " = " + std::to_string(grid[i]) +
                                 "; the limit is " + std::to_string(l.max_grid[i])};
  }
  if (c.shared_bytes > max_dynamic_shared())
    return LaunchRejection{cudaErrorInvalidValue,
                           "invalid argument: kernel " + code_name(kernel) + " was launched with " +
                               std::to_string(c.shared_bytes) + " bytes of dynamic shared memory; "
                               "the limit is " + std::to_string(max_dynamic_shared()) +
                               " (48 KiB, or up to 227 KiB after cudaFuncSetAttribute(kernel, "
                               "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))"};
  return std::nullopt;
}

}  // namespace cugrade_cpu
