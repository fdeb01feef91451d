#include "launch_limits.hpp"

#include <atomic>

#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"
#include "launch_rules.hpp"

namespace cugrade_cpu {
namespace {

std::atomic<std::size_t> dynamic_shared_limit{48 * 1024};

/// The error a GPU's launch returns for each rule broken (CUDA 13, NVIDIA H200).
cudaError_t refusal_error(cugrade::LaunchFault fault) {
  return fault == cugrade::LaunchFault::shared_memory ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
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
  cugrade::LaunchCeilings ceilings;
  ceilings.max_threads_per_block = l.max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    ceilings.max_block[i] = l.max_block[i];
    ceilings.max_grid[i] = l.max_grid[i];
  }
  ceilings.max_dynamic_shared_bytes = max_dynamic_shared();
  const cugrade::LaunchShape shape{{c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z}, c.shared_bytes};
  const cugrade::LaunchFault fault = cugrade::launch_fault(shape, ceilings);
  if (fault == cugrade::LaunchFault::none) return std::nullopt;
  const cudaError_t error = refusal_error(fault);
  return LaunchRejection{error, std::string(plain_error_string(error)) + ": kernel " + code_name(kernel) +
                                    " was launched with " + cugrade::launch_fault_words(shape, ceilings)};
}

}  // namespace cugrade_cpu
