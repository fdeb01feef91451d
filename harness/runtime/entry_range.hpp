#pragma once
// The profiler's marker around one entry call: an NVTX push/pop range named "cugrade_entry"
// (entry_range_name), so that Nsight Compute, told `--nvtx --nvtx-include cugrade_entry/`,
// profiles the kernels the student's (or the reference's) function launches and none of the
// runner's own (the poison fills, the L2 flush, the sample inputs, the digests).
// Why NVTX3: it is header-only (the toolkit's include/nvtx3) and costs one test of a null
// pointer per call when no tool is attached, so the timed calls keep it too. The CPU backend's
// runner (CUGRADE_CPU_RUNNER) has no profiler: there the range is nothing.
#if !defined(CUGRADE_CPU_RUNNER) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define CUGRADE_HAS_NVTX 1
#endif

namespace cugrade::runner {

/// The NVTX range's name; harness/src/diagnose/ncu_command.cpp filters on it.
inline constexpr const char* entry_range_name = "cugrade_entry";

namespace entry_range_detail {
inline thread_local bool open = false;          ///< this thread is inside the range
inline thread_local long kernels_left = -1;     ///< launches still profiled in it; -1: no cap
}  // namespace entry_range_detail

/// Pushes the range when made, pops it when destroyed (also when the call throws), unless a
/// capped call's launches left it first (count_launch_in_entry_range).
class EntryRange {
 public:
  EntryRange() {
#ifdef CUGRADE_HAS_NVTX
    nvtxRangePushA(entry_range_name);
#endif
    entry_range_detail::open = true;
    entry_range_detail::kernels_left = -1;
  }
  ~EntryRange() {
#ifdef CUGRADE_HAS_NVTX
    if (entry_range_detail::open) nvtxRangePop();
#endif
    entry_range_detail::open = false;
    entry_range_detail::kernels_left = -1;
  }
  /// From now on, the call's first `kernels` launches on this thread stay inside the range and
  /// the rest run outside it; a negative `kernels` caps nothing.
  void cap_kernels(long kernels) { entry_range_detail::kernels_left = kernels < 0 ? -1 : kernels; }
  EntryRange(const EntryRange&) = delete;
  EntryRange& operator=(const EntryRange&) = delete;
};

/// Called before each kernel launch: once a capped call has launched its profiled kernels, leaves
/// the range, so that this launch and the call's later ones are not profiled.
inline void count_launch_in_entry_range() {
  using namespace entry_range_detail;
  if (!open || kernels_left < 0) return;
  if (kernels_left > 0) {
    --kernels_left;
    return;
  }
#ifdef CUGRADE_HAS_NVTX
  nvtxRangePop();
#endif
  open = false;
}

}  // namespace cugrade::runner
