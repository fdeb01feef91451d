#pragma once
// Several entry calls profiled in one run (harness/src/diagnose/profile_call.cpp) are told apart
// by a marker: an empty kernel launched inside the entry's NVTX range (entry_range.hpp) just
// before each profiled call, so that Nsight Compute lists it first among that call's kernels.
// Only profiled calls (a check task with no output file) are marked; a timed or graded call
// launches nothing of the runner's inside the range.

namespace cugrade::runner {

/// The marker kernel's name, as the harness looks for it in ncu's table.
inline constexpr const char* call_marker_name = "cugrade_call_marker";

/// The environment variable that caps the kernels of a profiled call inside the entry range (a
/// number; unset: no cap): past it, the call's launches run outside the range and the profiler
/// skips them (entry_range.hpp). Why: each profiled kernel is replayed once per counter pass, and
/// a simulation's 19 launches took most of a diagnosis. The harness scales the profiled kernels'
/// counters to the call's launches (the done event's `launches`).
inline constexpr const char* profiled_kernels_variable = "CUGRADE_PROFILED_KERNELS";

/// Launches the marker kernel (one thread, no work) on the default stream.
void launch_call_marker();

}  // namespace cugrade::runner
