// The runner's launch tracking (harness/runtime/launch_tracking.hpp) for the CPU backend: every
// launch goes through run_grid, which notes the kernel, so no linker wrapping is needed.
#include "launch_tracking.hpp"

#include "cugrade_cpu/runtime_api.hpp"
#include "error_state.hpp"

namespace cugrade::runner {

void reset_last_kernel() { cugrade_cpu::forget_kernel(); }

// An error a runtime call returned (cudaMemcpy's invalid argument) is not the last kernel's:
// its message names the call and the line instead (error_state.hpp).
std::string last_kernel_name() { return cugrade_cpu::last_error_from_api() ? std::string() : cugrade_cpu::last_kernel(); }

std::optional<FailedCall> failed_call_with(int error) {
  const auto code = static_cast<cudaError_t>(error);
  std::string call = cugrade_cpu::failed_api_call(code);
  if (call.empty()) return std::nullopt;
  return FailedCall{std::move(call), cudaGetErrorString(code)};  // record_api_error's sentence
}

long launches_since_reset() { return cugrade_cpu::launches_run(); }

std::string fault_since_reset(int& error) {
  auto [fault, detail] = cugrade_cpu::kernel_fault();
  error = static_cast<int>(fault);
  return fault == cudaSuccess ? std::string() : detail;
}

long long most_threads_since_reset() { return cugrade_cpu::most_threads(); }

// The CPU backend's launch errors say why in their own string (launch_limits.cpp).
std::string launch_refusal(int) { return {}; }

}  // namespace cugrade::runner
