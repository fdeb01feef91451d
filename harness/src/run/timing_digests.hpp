#pragma once
// How the harness compares two runners' digests of one timed call (runtime/sample_inputs.hpp):
// each bucket's sum within the reference's bound of it, and for a step of exact tolerance the
// exact parts equal, which compares every element.
#include <cstddef>
#include <string>
#include <vector>

#include "job.hpp"

namespace cugrade {

/// Buckets of a digest, and the numbers of a runner's digest reply (runtime/serve_task.hpp):
/// the sums, the bounds, then the exact part's two 32-bit halves.
inline constexpr std::size_t timing_digest_buckets = 64, timing_digest_values = 2 * timing_digest_buckets + 2;

/// Whether `task`'s step has exact tolerance (atol and rtol 0): its digests' exact parts must agree.
bool exact_tolerance(const TimeTask& task);

/// True when the exact parts of two digests are the same: every element equal, but for a chance
/// of 2^-64; `why` says so where not.
bool exact_parts_agree(const std::vector<double>& student, const std::vector<double>& reference, std::string* why);

/// True when every bucket of the student's digest lies within the reference's bound of the
/// reference's digest (plus the rounding of summing in another order); `why` says where not.
bool digests_agree(const std::vector<double>& student, const std::vector<double>& reference,
                   const std::vector<double>& bounds, std::string* why);

/// Whether two digest replies' numbers (timing_digest_values each) agree for a step whose
/// tolerance is `exact` or not: the buckets, and for an exact step the exact parts too.
bool replies_agree(const std::vector<double>& student, const std::vector<double>& reference, bool exact,
                   std::string* why);

}  // namespace cugrade
