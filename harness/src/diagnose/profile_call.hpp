#pragma once
// One entry call profiled: a runner (the student's or the reference's) runs a job of one check
// task under Nsight Compute, inside the same sandbox as every run of that runner (the student's
// kernel never runs unsealed where the sandbox works; ncu runs inside it too, as the step's own
// user), and the counters of the kernels the call launched are read back from ncu's CSV.
// What comes back is evidence from a process that ran student code: it can only mislead the
// student's own diagnosis, which is advice and never points.
#include <filesystem>

#include "core/result.hpp"
#include "diagnose/counters.hpp"
#include "diagnose/source_lines.hpp"
#include "job.hpp"
#include "process/process_runner.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// What to profile and how.
struct ProfileRequest {
  std::filesystem::path ncu;  ///< the profiler (find_ncu)
  /// The runner and how it runs (sandbox, environment, read-only inputs); its `work_dir` is the
  /// profile's own folder (made here, writable, removed by the caller).
  RunRequest run;
  CheckTask task;             ///< the one call: its outputs are written into run.work_dir
  double timeout_s = 60.0;    ///< the whole profile, the runner's start included
  int max_kernels = 32;       ///< kernels of the call profiled at most (a relaunching reduction, a simulation)
  /// The student's staged sources (the build's src/), shown read-only so that ncu's source page
  /// can print the lines; empty: none shown.
  std::filesystem::path sources;
};

/// The counters of the call, or why there are none ("ncu took longer than 60 s", the permission
/// error, ...), phrased to follow "counters unavailable: ".
Result<CallCounters> profile_call(ProcessRunner& processes, const ProfileRequest& request);

/// The per-line counters of the first launch of `kernel` in the call (ncu's source page), or why
/// there are none.
Result<std::vector<SourceLine>> profile_source_lines(ProcessRunner& processes, const ProfileRequest& request,
                                                     const std::string& kernel);

}  // namespace cugrade
