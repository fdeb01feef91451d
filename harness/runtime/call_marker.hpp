#pragma once
// Several entry calls profiled in one run (harness/src/diagnose/profile_call.cpp) are told apart
// by a marker: an empty kernel launched inside the entry's NVTX range (entry_range.hpp) just
// before each profiled call, so that Nsight Compute lists it first among that call's kernels.
// Only profiled calls (a check task with no output file) are marked; a timed or graded call
// launches nothing of the runner's inside the range.

namespace cugrade::runner {

/// The marker kernel's name, as the harness looks for it in ncu's table.
inline constexpr const char* call_marker_name = "cugrade_call_marker";

/// Launches the marker kernel (one thread, no work) on the default stream.
void launch_call_marker();

}  // namespace cugrade::runner
