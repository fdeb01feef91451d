#pragma once
// Runner samples to the report's timing numbers, with the cross-check of event times against the
// host wall clock (design.md §4, §7).
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// Per-sample time: the CUDA-event time, unless the host wall clock around a device-wide
/// synchronize typically reads far longer (the median of wall − event beyond 0.5 × the median
/// event + 0.05 ms) — then work escaped the events (e.g. a kernel on a side stream) and every
/// sample's wall time is used and counted in wall_clock_samples. A few samples that the host's
/// scheduler delayed (a busy machine) leave the event times standing. A sample without a wall
/// time (wall_ms shorter, or empty: the CPU backend, or the reference's trusted runner) uses its
/// event time; an event time that is NaN, infinite or negative is replaced by a finite wall time,
/// and the sample is dropped when there is none.
TimingStats timing_stats(const std::vector<double>& event_ms, const std::vector<double>& wall_ms);

}  // namespace cugrade
