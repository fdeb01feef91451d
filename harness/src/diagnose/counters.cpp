#include "diagnose/counters.hpp"

#include <algorithm>

namespace cugrade {
namespace {

// Metric names as Nsight Compute 2025 spells them for Volta and later.
constexpr const char* kDuration = "gpu__time_duration.sum";
constexpr const char* kLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr const char* kSharedLoads = "smsp__inst_executed_op_shared_ld.sum";
constexpr const char* kSharedStores = "smsp__inst_executed_op_shared_st.sum";
constexpr const char* kSharedLoadsAtWork = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr const char* kInstructions = "smsp__inst_executed.sum";
constexpr const char* kThreadInstructions = "smsp__thread_inst_executed.sum";
constexpr const char* kActiveThreadInstructions = "smsp__thread_inst_executed_pred_on.sum";
constexpr const char* kBranchUniformity = "smsp__sass_average_branch_targets_threads_uniform.pct";
constexpr const char* kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kTheoreticalOccupancy = "sm__maximum_warps_per_active_cycle_pct";
constexpr const char* kDramThroughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char* kBlockSize = "launch__block_size";
constexpr const char* kGridSize = "launch__grid_size";
constexpr const char* kRegisters = "launch__registers_per_thread";

double metric(const KernelProfile& k, const char* name) {
  const auto it = k.metrics.find(name);
  return it == k.metrics.end() ? 0.0 : it->second;
}

double ratio(double a, double b) { return b > 0.0 ? a / b : 0.0; }

}  // namespace

std::string diagnosis_metrics() {
  std::string list;
  for (const char* name : {kDuration, kLoadSectors, kLoadRequests, kStoreSectors, kStoreRequests,
                           kSharedLoadWavefronts, kSharedStoreWavefronts, kSharedLoadConflicts, kSharedStoreConflicts,
                           kSharedLoads, kSharedStores, kSharedLoadsAtWork, kInstructions, kThreadInstructions, kActiveThreadInstructions,
                           kBranchUniformity, kWarpsActive, kTheoreticalOccupancy, kDramThroughput, kBlockSize,
                           kGridSize, kRegisters})
    list += (list.empty() ? "" : ",") + std::string(name);
  return list;
}

double CallCounters::load_sectors_per_request() const { return ratio(global_load_sectors, global_load_requests); }
double CallCounters::store_sectors_per_request() const { return ratio(global_store_sectors, global_store_requests); }
double CallCounters::shared_load_ways() const { return ratio(shared_load_wavefronts, shared_load_instructions); }
double CallCounters::shared_store_ways() const { return ratio(shared_store_wavefronts, shared_store_instructions); }
double CallCounters::threads_per_instruction() const { return ratio(thread_instructions, instructions); }
double CallCounters::active_threads_per_instruction() const { return ratio(active_thread_instructions, instructions); }
double CallCounters::lane_occupancy_pct() const { return warps_active_pct * threads_per_instruction() / 32.0; }

std::string untimed_kernel(const std::vector<KernelProfile>& kernels) {
  for (const KernelProfile& k : kernels)
    if (!k.metrics.contains(kDuration)) return short_kernel_name(k.kernel);
  return "";
}

CallCounters summarize_call(const std::vector<KernelProfile>& kernels) {
  CallCounters c;
  c.kernels = static_cast<int>(kernels.size());
  const KernelProfile* longest = nullptr;
  double weighted_warps = 0.0, weighted_dram = 0.0, weighted_branch = 0.0;
  for (const KernelProfile& k : kernels) {
    const double d = metric(k, kDuration);
    c.duration_ns += d;
    c.global_load_sectors += metric(k, kLoadSectors);
    c.global_load_requests += metric(k, kLoadRequests);
    c.global_store_sectors += metric(k, kStoreSectors);
    c.global_store_requests += metric(k, kStoreRequests);
    c.shared_load_wavefronts += metric(k, kSharedLoadWavefronts);
    c.shared_load_instructions += metric(k, kSharedLoads);
    c.shared_load_conflicts += metric(k, kSharedLoadConflicts);
    c.shared_store_wavefronts += metric(k, kSharedStoreWavefronts);
    c.shared_store_instructions += metric(k, kSharedStores);
    c.shared_store_conflicts += metric(k, kSharedStoreConflicts);
    c.shared_loads_at_work += metric(k, kSharedLoadsAtWork);
    c.instructions += metric(k, kInstructions);
    c.thread_instructions += metric(k, kThreadInstructions);
    c.active_thread_instructions += metric(k, kActiveThreadInstructions);
    weighted_warps += d * metric(k, kWarpsActive);
    weighted_dram += d * metric(k, kDramThroughput);
    weighted_branch += d * metric(k, kBranchUniformity);
    if (!longest || d > metric(*longest, kDuration)) longest = &k;
  }
  c.warps_active_pct = ratio(weighted_warps, c.duration_ns);
  c.dram_throughput_pct = ratio(weighted_dram, c.duration_ns);
  c.branch_uniformity_pct = ratio(weighted_branch, c.duration_ns);
  if (longest) {
    c.main_kernel = short_kernel_name(longest->kernel);
    c.theoretical_occupancy_pct = metric(*longest, kTheoreticalOccupancy);
    c.block_size = static_cast<int>(metric(*longest, kBlockSize));
    c.grid_size = static_cast<int>(metric(*longest, kGridSize));
    c.registers_per_thread = static_cast<int>(metric(*longest, kRegisters));
  }
  return c;
}

void scale_to_launches(CallCounters& c, long launches) {
  if (c.kernels <= 0 || launches <= c.kernels) return;
  const double factor = static_cast<double>(launches) / c.kernels;
  for (double* sum : {&c.duration_ns, &c.global_load_sectors, &c.global_load_requests, &c.global_store_sectors,
                      &c.global_store_requests, &c.shared_load_wavefronts, &c.shared_load_instructions,
                      &c.shared_load_conflicts, &c.shared_store_wavefronts, &c.shared_store_instructions,
                      &c.shared_store_conflicts, &c.shared_loads_at_work, &c.instructions, &c.thread_instructions,
                      &c.active_thread_instructions})
    *sum *= factor;
}

}  // namespace cugrade
