#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cugrade {
namespace {
/// Percentile p in [0, 1] of sorted data, interpolating linearly between ranks.
double percentile(const std::vector<double>& sorted, double p) {
  const double rank = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (rank - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}
}  // namespace

SampleSummary summarize(std::vector<double> samples) {
  SampleSummary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.median = percentile(samples, 0.5);
  s.q1 = percentile(samples, 0.25);
  s.q3 = percentile(samples, 0.75);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  if (s.count > 1 && s.mean > 0.0) {
    double sum_sq = 0.0;
    for (double x : samples) sum_sq += (x - s.mean) * (x - s.mean);
    const double sd = std::sqrt(sum_sq / static_cast<double>(s.count - 1));
    s.rse = sd / std::sqrt(static_cast<double>(s.count)) / s.mean;
  }
  return s;
}

bool should_stop(const std::vector<double>& samples, const StoppingRule& rule, double elapsed_s) {
  if (samples.size() < rule.min_samples) return false;
  if (samples.size() >= rule.max_samples || elapsed_s >= rule.budget_s) return true;
  return summarize(samples).rse <= rule.target_rse;
}

}  // namespace cugrade
