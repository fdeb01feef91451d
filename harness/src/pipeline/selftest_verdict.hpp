#pragma once
// The self-test's judgement of one entry's report against its expectation (selftest_entries.hpp):
// its outcome and feedback, the points and time it may take, the diagnosis it must get.
#include <string>

#include "pipeline/check_submission.hpp"
#include "pipeline/selftest_entries.hpp"

namespace cugrade {

/// What differs from `entry`'s expectation in `report` (checked with `options`, its stages taking
/// `spent`); empty: it holds. The diagnosis is judged only on the GPU with performance and
/// diagnosis on.
std::string selftest_verdict(const SelftestEntry& entry, const GradeReport& report, const StageSeconds& spent,
                             const CheckOptions& options);

/// The first thing `report` says went wrong: a case's message, else a timed step's, else its last
/// note (shortened); empty when nothing did.
std::string first_failure(const GradeReport& report);

/// A check's own seconds: its stages, not its wait for a builder or the GPU.
double own_seconds(const StageSeconds& spent);

}  // namespace cugrade
