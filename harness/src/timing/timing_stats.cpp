#include "timing/timing_stats.hpp"

#include <cmath>

#include "statistics.hpp"

namespace cugrade {
namespace {
// The wall clock always reads a little longer than the events (launch latency, the synchronize
// call itself): only a gap far beyond that means GPU work ran outside the timed stream.
constexpr double kEscapeFactor = 0.5;
constexpr double kEscapeSlackMs = 0.05;

bool usable(double ms) { return std::isfinite(ms) && ms >= 0.0; }

/// True when the typical sample's wall clock reads far beyond its events: the median of the
/// per-sample gaps, so that a few samples the host's scheduler delayed (a loaded machine) do not
/// count, while work left outside the events on most calls does.
bool work_escaped(const std::vector<double>& event_ms, const std::vector<double>& wall_ms) {
  std::vector<double> gaps, events;
  for (std::size_t i = 0; i < event_ms.size() && i < wall_ms.size(); ++i)
    if (usable(event_ms[i]) && usable(wall_ms[i])) {
      gaps.push_back(wall_ms[i] - event_ms[i]);
      events.push_back(event_ms[i]);
    }
  if (gaps.empty()) return false;
  return summarize(gaps).median > kEscapeFactor * summarize(events).median + kEscapeSlackMs;
}
}  // namespace

std::vector<double> graded_samples(const std::vector<double>& event_ms, const std::vector<double>& wall_ms,
                                   std::size_t* wall_clock_samples) {
  const bool escaped = work_escaped(event_ms, wall_ms);
  std::vector<double> samples;
  samples.reserve(event_ms.size());
  std::size_t walls = 0;
  for (std::size_t i = 0; i < event_ms.size(); ++i) {
    const double event = event_ms[i];
    const bool has_wall = i < wall_ms.size() && usable(wall_ms[i]);
    if (!usable(event)) {
      // A student who can patch the timer can make the event time garbage; the wall clock stands.
      if (!has_wall) continue;
      samples.push_back(wall_ms[i]);
      ++walls;
    } else if (escaped && has_wall && wall_ms[i] > event) {
      samples.push_back(wall_ms[i]);
      ++walls;
    } else {
      samples.push_back(event);
    }
  }
  if (wall_clock_samples) *wall_clock_samples = walls;
  return samples;
}

TimingStats timing_stats(const std::vector<double>& event_ms, const std::vector<double>& wall_ms) {
  TimingStats stats;
  const std::vector<double> samples = graded_samples(event_ms, wall_ms, &stats.wall_clock_samples);
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

CountedReference counted_reference(const std::vector<double>& beside_ms, const std::vector<double>& alone_ms) {
  CountedReference reference;
  reference.beside = timing_stats(beside_ms, {});
  if (!alone_ms.empty()) {
    reference.alone = timing_stats(alone_ms, {});
    reference.disturbed = reference.beside.median_ms > reference_disturbed_factor * reference.alone->median_ms;
  }
  return reference;
}

}  // namespace cugrade
