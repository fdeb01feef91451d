#pragma once
// What diagnosis reads of one entry call: the few Nsight Compute metrics it asks for (one or
// two replay passes, so that profiling stays quick), summed or averaged over every kernel the
// call launched, and the quantities the causes are judged on (sectors per request, wavefronts
// per shared-memory instruction, threads per instruction, achieved occupancy).
#include <string>
#include <vector>

#include "diagnose/ncu_csv.hpp"

namespace cugrade {

/// The metrics ncu is asked for, comma-separated as `--metrics` takes them.
std::string diagnosis_metrics();

/// One entry call's counters, all its kernels together.
struct CallCounters {
  int kernels = 0;              ///< kernels profiled
  std::string main_kernel;      ///< the longest one's short name ("mtran")
  double duration_ns = 0.0;     ///< summed over the kernels
  double global_load_sectors = 0.0, global_load_requests = 0.0;
  double global_store_sectors = 0.0, global_store_requests = 0.0;
  double shared_load_wavefronts = 0.0, shared_load_instructions = 0.0, shared_load_conflicts = 0.0;
  double shared_store_wavefronts = 0.0, shared_store_instructions = 0.0, shared_store_conflicts = 0.0;
  /// Warp-level shared loads in which at least one lane's predicate was on (counted in the SASS): a
  /// load the compiler predicated off for the whole warp is left out, where shared_load_instructions
  /// counts it.
  double shared_loads_at_work = 0.0;
  double instructions = 0.0;          ///< warp-level instructions executed
  double thread_instructions = 0.0;   ///< thread-level: lanes that executed them
  double active_thread_instructions = 0.0;  ///< lanes whose predicate was on (work done)
  double branch_uniformity_pct = 0.0; ///< ncu's branch efficiency, averaged by duration
  double warps_active_pct = 0.0;      ///< achieved occupancy, averaged by duration
  double theoretical_occupancy_pct = 0.0;  ///< the longest kernel's
  double dram_throughput_pct = 0.0;   ///< of peak, averaged by duration
  int block_size = 0, grid_size = 0, registers_per_thread = 0;  ///< the longest kernel's

  /// Global load sectors per request (0 without requests): 4 is a warp reading 32 adjacent floats.
  double load_sectors_per_request() const;
  /// The same for stores.
  double store_sectors_per_request() const;
  /// Wavefronts per warp-level shared load: 1 for 32 floats in 32 banks, n for an n-way conflict.
  double shared_load_ways() const;
  /// The same for shared stores.
  double shared_store_ways() const;
  /// Warp-level shared loads and stores.
  double shared_instructions() const { return shared_load_instructions + shared_store_instructions; }
  /// Lanes that executed each warp instruction, on average (32 = every lane there).
  double threads_per_instruction() const;
  /// Lanes that did the work of each warp instruction (predicate on), on average.
  double active_threads_per_instruction() const;
  /// Threads the longest kernel launched (its blocks times their threads).
  double threads() const { return static_cast<double>(block_size) * grid_size; }
  /// Achieved occupancy counted in lanes: the warps' share of the SM times their lanes' share.
  double lane_occupancy_pct() const;
};

/// The first of `kernels` whose time ncu did not measure (no number for it: the rules weigh each
/// kernel's counters by its time), by its short name; empty when every kernel was timed.
std::string untimed_kernel(const std::vector<KernelProfile>& kernels);

/// The counters of one call from the kernels ncu profiled in it (at least one).
CallCounters summarize_call(const std::vector<KernelProfile>& kernels);

/// Counters of a call whose first `kernels` launches were profiled, scaled to all `launches` it
/// made (the runner caps a profiled call's kernels: runtime/call_marker.hpp): every sum grows by
/// launches / kernels, as if the rest were like them; averages and the longest kernel's facts stay.
/// Nothing changes where `launches` is not more than the kernels profiled.
void scale_to_launches(CallCounters& counters, long launches);

}  // namespace cugrade
