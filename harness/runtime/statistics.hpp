#pragma once
// Timing statistics and the stopping rule (design.md §7), shared by the runner (which decides
// when to stop sampling) and the harness (which summarises what came back).
#include <cstddef>
#include <vector>

namespace cugrade {

/// Summary of a set of samples.
struct SampleSummary {
  std::size_t count = 0;
  double median = 0.0, mean = 0.0, min = 0.0, max = 0.0;
  double q1 = 0.0, q3 = 0.0;  ///< 25th and 75th percentiles (linear interpolation)
  double rse = 0.0;           ///< relative standard error of the mean: sd / sqrt(n) / mean
};

/// Summarises samples (any order); all zero for an empty set.
SampleSummary summarize(std::vector<double> samples);

/// When to stop taking samples.
struct StoppingRule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 200;
  double target_rse = 0.005;  ///< 0.5 %
  double budget_s = 3.0;
};

/// True when enough samples were taken: at least min_samples, and then the relative standard
/// error is at the target, max_samples is reached, or the time budget is spent.
bool should_stop(const std::vector<double>& samples, const StoppingRule& rule, double elapsed_s);

}  // namespace cugrade
