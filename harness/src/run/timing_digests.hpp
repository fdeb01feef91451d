#pragma once
// How the harness compares two runners' digests of one timed call (runtime/sample_inputs.hpp):
// each bucket's sum within the reference's bound of it, for a step of exact tolerance the exact
// parts equal, which compares every element, and each spot (an element the key chose) within the
// step's tolerance of the reference's.
#include <cstddef>
#include <string>
#include <vector>

#include "job.hpp"

namespace cugrade {

/// Buckets of a digest, and the numbers of a runner's digest reply (runtime/serve_task.hpp):
/// the sums, the bounds, then the exact part's two 32-bit halves.
inline constexpr std::size_t timing_digest_buckets = 64, timing_digest_values = 2 * timing_digest_buckets + 2;

/// The spots a digest holds per output with any element (runtime/sample_inputs.hpp's digest_spots).
inline constexpr std::size_t timing_digest_spots = 64;

/// How many numbers a runner's digest reply for `task` holds: timing_digest_values, then the spots
/// of each of its outputs that has elements, in the outputs' order.
std::size_t digest_reply_values(const TimeTask& task);

/// Whether `task`'s step has exact tolerance (atol and rtol 0): its digests' exact parts must agree.
bool exact_tolerance(const TimeTask& task);

/// True when the exact parts of two digests are the same: every element equal, but for a chance
/// of 2^-64; `why` says so where not.
bool exact_parts_agree(const std::vector<double>& student, const std::vector<double>& reference, std::string* why);

/// True when every bucket of the student's digest lies within the reference's bound of the
/// reference's digest (plus the rounding of summing in another order); `why` says where not.
bool digests_agree(const std::vector<double>& student, const std::vector<double>& reference,
                   const std::vector<double>& bounds, std::string* why);

/// True when each of the student's spots lies within atol + rtol·|r| of the reference's r (one
/// the reference holds as NaN or Inf is not judged here: the whole output's comparison says so);
/// `why` says which did not.
bool spots_agree(const std::vector<double>& student, const std::vector<double>& reference, double atol, double rtol,
                 std::string* why);

/// Whether two digest replies' numbers (digest_reply_values(task) each) agree for `task`'s step:
/// the buckets, for a step of exact tolerance the exact parts, and the spots.
bool replies_agree(const std::vector<double>& student, const std::vector<double>& reference, const TimeTask& task,
                   std::string* why);

}  // namespace cugrade
