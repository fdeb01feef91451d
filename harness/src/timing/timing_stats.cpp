#include "timing/timing_stats.hpp"

#include <cmath>

#include "statistics.hpp"

namespace cugrade {
namespace {
// The wall clock always reads a little longer than the events (launch latency, the synchronize
// call itself): only a gap far beyond that means GPU work ran outside the timed stream.
constexpr double kEscapeFactor = 1.5;
constexpr double kEscapeSlackMs = 0.05;

bool usable(double ms) { return std::isfinite(ms) && ms >= 0.0; }
}  // namespace

TimingStats timing_stats(const std::vector<double>& event_ms, const std::vector<double>& wall_ms) {
  TimingStats stats;
  std::vector<double> samples;
  samples.reserve(event_ms.size());
  for (std::size_t i = 0; i < event_ms.size(); ++i) {
    const double event = event_ms[i];
    const bool has_wall = i < wall_ms.size() && usable(wall_ms[i]);
    if (!usable(event)) {
      // A student who can patch the timer can make the event time garbage; the wall clock stands.
      if (!has_wall) continue;
      samples.push_back(wall_ms[i]);
      ++stats.wall_clock_samples;
    } else if (has_wall && wall_ms[i] > kEscapeFactor * event + kEscapeSlackMs) {
      samples.push_back(wall_ms[i]);
      ++stats.wall_clock_samples;
    } else {
      samples.push_back(event);
    }
  }
  const SampleSummary s = summarize(samples);
  stats.median_ms = s.median;
  stats.min_ms = s.min;
  stats.max_ms = s.max;
  stats.q1_ms = s.q1;
  stats.q3_ms = s.q3;
  stats.rse = s.rse;
  stats.samples = s.count;
  return stats;
}

}  // namespace cugrade
