#pragma once
// The lectures' CPU column: how long the grader's gold takes on one CPU core. The gold is the
// trusted CPU implementation every output is checked against, so it is what a lecture's
// "CPU (1 core)" time and its "Rate" (CPU time / GPU time) stand for here.
#include "graders/grader.hpp"

namespace cugrade {

/// When to stop timing the gold.
struct GoldTiming {
  double budget_s = 0.5;  ///< repeat while the calls so far took less than this ...
  int max_calls = 9;      ///< ... and at most this many calls (at least one, whatever it takes)
};

/// The median time in ms of grader.gold(c, inputs) on this thread, held to one CPU core while
/// it runs (the gold itself is single-threaded).
double time_gold_ms(const Grader& grader, const Case& c, const ArraySet& inputs,
                    const GoldTiming& timing = {});

}  // namespace cugrade
