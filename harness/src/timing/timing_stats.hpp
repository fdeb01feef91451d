#pragma once
// Runner samples to the report's timing numbers, with the cross-check of event times against the
// host wall clock (design.md §4, §7).
#include <optional>
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

/// The per-sample times timing_stats reads, in order (its rules above); `wall_clock_samples`, when
/// given, receives how many are wall times. What the timing's stopping rule watches, so that
/// sampling stops when the times that are graded are steady, not the events that work escaped.
std::vector<double> graded_samples(const std::vector<double>& event_ms, const std::vector<double>& wall_ms,
                                   std::size_t* wall_clock_samples = nullptr);

/// A reference running this much slower beside the student's runner than beside a twin of
/// itself was slowed by the student's work on the GPU during its turns. The baseline takes turns
/// with another process as the lock-step does, so honest drift within one reference process is
/// small (a kept baseline of another process is taken again before it may blame: lockstep_timing);
/// the contention attack slows the reference by 26-31 % (docs/measurements.md).
inline constexpr double reference_disturbed_factor = 1.10;

/// The reference's times, and which of them count against the student's.
struct CountedReference {
  TimingStats beside;                ///< taken in turns with the student's runner
  std::optional<TimingStats> alone;  ///< its baseline beside a twin of itself, when taken
  bool disturbed = false;            ///< beside > reference_disturbed_factor × alone
  /// What counts: the baseline when disturbed, else the times beside the student's runner.
  const TimingStats& counted() const { return disturbed ? *alone : beside; }
};

/// The reference's event times beside the student's runner and alone (empty: no baseline), read
/// as the verdict and the diagnosis both read them (the reference's events are believed).
CountedReference counted_reference(const std::vector<double>& beside_ms, const std::vector<double>& alone_ms);

}  // namespace cugrade
