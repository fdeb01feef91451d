#include "launch_limits.hpp"

#include <atomic>

#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"

namespace cugrade_cpu {
namespace {

std::atomic<std::size_t> dynamic_shared_limit{48 * 1024};

/// The error a GPU's launch returns for every rule broken: cudaErrorInvalidValue under CUDA 13
/// (measured on an NVIDIA H200, driver 580, for each rule of launch_rules.hpp, with `<<<>>>` and
/// with cudaLaunchKernel; older toolkits said cudaErrorInvalidConfiguration for the shapes).
constexpr cudaError_t refusal_error = cudaErrorInvalidValue;

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
  cugrade::LaunchCeilings ceilings = launch_limits();  // the kernel's dynamic shared memory as it is now
  ceilings.max_dynamic_shared_bytes = max_dynamic_shared();
  const cugrade::LaunchShape shape{{c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z}, c.shared_bytes};
  if (cugrade::launch_fault(shape, ceilings) == cugrade::LaunchFault::none) return std::nullopt;
  return LaunchRejection{refusal_error, std::string(plain_error_string(refusal_error)) + ": kernel " +
                                            code_name(kernel) + " was launched with " +
                                            cugrade::launch_fault_words(shape, ceilings)};
}

}  // namespace cugrade_cpu
