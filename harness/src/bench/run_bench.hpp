#pragma once
// `cugrade bench` for one assignment: the reference built into a runner (as the self-test builds
// it), every row of every `bench:` table timed as the reference alone on the GPU, the CPU gold
// timed on one core, and the lecture tables computed. The order of those stages lives here only.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "bench/bench_plan.hpp"
#include "bench/bench_report.hpp"
#include "core/locations.hpp"
#include "device/device_info.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// What a user asked of `cugrade bench`.
struct BenchOptions {
  BenchSettings settings;
  bool cpu_rate = true;            ///< time the CPU gold for the Rate column (--no-cpu-rate: no)
  std::filesystem::path work_dir;  ///< empty = a fresh temporary folder per assignment
  bool keep_work_dir = false;      ///< keep the folder (runner, job, events) for debugging
  std::function<void(const std::string&)> progress;  ///< status lines; may be empty
};

/// The collaborators of a bench run.
struct BenchContext {
  ProcessRunner& processes;
  Locations locations;
  DeviceInfo device;                 ///< the GPU (present: the caller checked, bench needs one)
  std::optional<Ceilings> ceilings;  ///< this GPU's; nullopt = no % column
};

/// Measures the lecture tables of `spec` (which has a `bench:` section). Never throws for a
/// failure of the build or the runner: rows that could not be timed carry the outcome and why.
BenchAssignment bench_assignment(const BenchContext& context, const Spec& spec,
                                 const Grader& grader, const BenchOptions& options);

}  // namespace cugrade
