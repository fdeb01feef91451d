#pragma once
// From two timings (student and reference) to the numbers and flags a performance target is
// scored on (design.md §7): a ratio, not milliseconds, so one assignment is fair on any GPU.
#include <optional>
#include <string>

#include "graders/grader.hpp"
#include "report/grade_report.hpp"
#include "timing/ceilings.hpp"

namespace cugrade {

/// How a rate unit counts work: "GB/s" counts bytes, "TFLOP/s" flops, any other unit items;
/// `scale` is its SI prefix ("G" = 1e9), from a leading k/M/G/T/P followed by "B", "FLOP" or a
/// space ("G interactions/s").
struct RateUnit {
  enum class Counts { bytes, flops, items } counts = Counts::items;
  double scale = 1.0;
};

/// Reads a rate unit as described at RateUnit.
RateUnit parse_rate_unit(const std::string& unit);

/// The unit a step's rate is shown in: work.rate_unit, else "TFLOP/s" when there are flops,
/// else "GB/s".
std::string rate_unit_for(const Work& work);

/// What one call of `work` counts in: its bytes, flops or items.
double work_quantity(const Work& work, RateUnit::Counts counts);

/// `work` per second in `unit` for one call of `median_ms`; 0 when the time is not positive.
double work_rate(const Work& work, const RateUnit& unit, double median_ms);

/// Fills ratio (reference median / student median), rate_unit (work.rate_unit, else TFLOP/s when
/// there are flops, else GB/s), the student and reference rates, percent_of_ceiling (GB/s against
/// copy_gbps, TFLOP/s against sgemm_tflops; unset for domain units or without ceilings), the
/// flags and the message. Flags: "below_roofline_floor" when the student's median is below
/// 0.9 × roofline_floor_ms (points are set to 0: the time is physically impossible);
/// "timer_escaped" when wall-clock samples replaced event times; "noisy" when the student's or
/// the reference's rse > 0.02. Does nothing without a student timing.
void assess_performance(PerformanceResult& result, const Work& work, const std::optional<Ceilings>& ceilings);

}  // namespace cugrade
