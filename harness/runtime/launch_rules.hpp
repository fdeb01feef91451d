#pragma once
// Why a GPU refuses a launch's shape, in the words both backends use: the CPU backend checks
// every launch against these rules before its grid runs (harness/cpu/executor/launch_limits.cpp),
// and on the GPU the runner explains with them a launch the driver refused
// (launch_tracking.cpp), so a student reads the same sentence on either.
#include <cstddef>
#include <string>

namespace cugrade {

/// A launch's grid, block and dynamic shared memory (x, y, z).
struct LaunchShape {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  std::size_t dynamic_shared_bytes = 0;
};

/// What a device allows of one launch; the defaults are compute capability 9.0's.
struct LaunchCeilings {
  unsigned max_threads_per_block = 1024;
  unsigned max_block[3] = {1024, 1024, 64};
  unsigned max_grid[3] = {2147483647u, 65535u, 65535u};
  std::size_t max_dynamic_shared_bytes = 48 * 1024;  ///< for this kernel now (cudaFuncSetAttribute raises it)
};

/// Which rule a launch breaks, in the order the checks run.
enum class LaunchFault { none, empty, too_many_threads, block_dimension, grid_dimension, shared_memory };

/// The first rule `shape` breaks under `ceilings`, or LaunchFault::none.
inline LaunchFault launch_fault(const LaunchShape& shape, const LaunchCeilings& ceilings) {
  const unsigned long long threads = 1ull * shape.block[0] * shape.block[1] * shape.block[2];
  if (threads == 0 || 1ull * shape.grid[0] * shape.grid[1] * shape.grid[2] == 0) return LaunchFault::empty;
  if (threads > ceilings.max_threads_per_block) return LaunchFault::too_many_threads;
  for (int i = 0; i < 3; ++i)
    if (shape.block[i] > ceilings.max_block[i]) return LaunchFault::block_dimension;
  for (int i = 0; i < 3; ++i)
    if (shape.grid[i] > ceilings.max_grid[i]) return LaunchFault::grid_dimension;
  if (shape.dynamic_shared_bytes > ceilings.max_dynamic_shared_bytes) return LaunchFault::shared_memory;
  return LaunchFault::none;
}

namespace launch_rules_detail {
inline std::string dims(const unsigned (&d)[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

/// "blockDim.z = 65; the limit is 64" for the first of `values` past its limit, named `what`.
inline std::string first_over(const char* what, const unsigned (&values)[3], const unsigned (&limits)[3]) {
  const char* axis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    if (values[i] > limits[i])
      return std::string(what) + "." + axis[i] + " = " + std::to_string(values[i]) + "; the limit is " +
             std::to_string(limits[i]);
  return "";
}
}  // namespace launch_rules_detail

/// What follows "kernel `k` was launched with " for the first rule `shape` breaks ("2048
/// threads per block (2048x1x1); a block has at most 1024 threads"); empty when it breaks none.
inline std::string launch_fault_words(const LaunchShape& shape, const LaunchCeilings& ceilings) {
  using launch_rules_detail::dims;
  using launch_rules_detail::first_over;
  switch (launch_fault(shape, ceilings)) {
    case LaunchFault::none: return "";
    case LaunchFault::empty:
      return "grid " + dims(shape.grid) + " and block " + dims(shape.block) + "; no dimension may be 0";
    case LaunchFault::too_many_threads:
      return std::to_string(1ull * shape.block[0] * shape.block[1] * shape.block[2]) + " threads per block (" +
             dims(shape.block) + "); a block has at most " + std::to_string(ceilings.max_threads_per_block) +
             " threads";
    case LaunchFault::block_dimension: return first_over("blockDim", shape.block, ceilings.max_block);
    case LaunchFault::grid_dimension: return first_over("gridDim", shape.grid, ceilings.max_grid);
    case LaunchFault::shared_memory:
      return std::to_string(shape.dynamic_shared_bytes) + " bytes of dynamic shared memory; the limit is " +
             std::to_string(ceilings.max_dynamic_shared_bytes) +
             " (48 KiB, or up to 227 KiB after cudaFuncSetAttribute(kernel, "
             "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))";
  }
  return "";
}

}  // namespace cugrade
