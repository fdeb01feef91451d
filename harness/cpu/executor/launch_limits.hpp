#pragma once
// The launch limits of a real GPU (compute capability 9.0), checked before a grid runs, with
// the error CUDA returns for each.
#include <optional>
#include <string>

#include "cugrade_cpu/launch.hpp"
#include "launch_rules.hpp"

namespace cugrade_cpu {

/// Threads per block, block and grid dimensions, dynamic shared memory: the shared rules'
/// ceilings (launch_rules.hpp; their dynamic shared memory is the default, without
/// cudaFuncSetAttribute), and the most cudaFuncSetAttribute may allow.
struct LaunchLimits : cugrade::LaunchCeilings {
  std::size_t optin_shared_bytes = 227 * 1024;
};

/// The limits of the fake device.
const LaunchLimits& launch_limits();

/// The dynamic shared memory a launch may use now (raised by cudaFuncSetAttribute).
std::size_t max_dynamic_shared();

/// A launch-limit violation: the CUDA error and a message naming the kernel; nullopt if valid.
struct LaunchRejection {
  cudaError_t error;
  std::string message;
};
std::optional<LaunchRejection> check_launch(const LaunchConfig& config, const char* kernel);

}  // namespace cugrade_cpu
