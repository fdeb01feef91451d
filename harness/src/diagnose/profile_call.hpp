#pragma once
// Entry calls profiled: a runner (the student's or the reference's) runs a job of check tasks
// under Nsight Compute, inside the same sandbox as every run of that runner (the student's
// kernel never runs unsealed where the sandbox works; ncu runs inside it too, as the step's own
// user), and the counters of the kernels the call launched are read back from ncu's CSV.
// What comes back is evidence from a process that ran student code: it can only mislead the
// student's own diagnosis, which is advice and never points.
#include <filesystem>

#include "core/result.hpp"
#include "diagnose/counters.hpp"
#include "diagnose/ncu_command.hpp"
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
  CheckTask task;             ///< the one call (profile_call, profile_source_lines)
  double timeout_s = 60.0;    ///< the whole profile, the runner's start included
  /// Kernels of each call profiled at most (a relaunching reduction's levels, a simulation's time
  /// steps); the counters are scaled to all the call's launches (scale_to_launches).
  int max_kernels = 8;
  /// The student's staged sources (the build's src/), shown read-only so that ncu's source page
  /// can print the lines; empty: none shown.
  std::filesystem::path sources;
  /// ncu's section folders (ncu_section_folders, outside every sandbox's writable folder), shown
  /// read-only; an empty one: ncu reads its own.
  NcuSectionFolders sections;
};

/// The counters of the call, or why there are none ("ncu took longer than 60 s", the permission
/// error, ...), phrased to follow "counters unavailable: ".
Result<CallCounters> profile_call(ProcessRunner& processes, const ProfileRequest& request);

/// The counters of each of `tasks` (in place of `request.task`), all profiled in one run of the
/// runner, in order: one start of ncu and of the runner instead of one per call. Fails as a
/// whole only when the run gave no table (ncu missing, refused, past its time); a call whose
/// kernels the table does not hold (the runner ended before it, the launch limit was spent
/// before it) fails alone, and can be profiled again by itself.
Result<std::vector<Result<CallCounters>>> profile_calls(ProcessRunner& processes, const ProfileRequest& request,
                                                        const std::vector<CheckTask>& tasks);

/// A run's kernels (in launch order) split into `calls` calls at the runner's marker kernels
/// (harness/runtime/call_marker.hpp: each call's kernels follow its marker), the markers left
/// out and each call cut to its first `max_kernels`. A table without any marker is the one
/// call's when `calls` is 1; calls the table does not reach come back empty.
std::vector<std::vector<KernelProfile>> kernels_by_call(const std::vector<KernelProfile>& kernels,
                                                        std::size_t calls, int max_kernels);

/// The per-line counters of the first launch of `kernel` in the call (ncu's source page), or why
/// there are none.
Result<std::vector<SourceLine>> profile_source_lines(ProcessRunner& processes, const ProfileRequest& request,
                                                     const std::string& kernel);

}  // namespace cugrade
