#pragma once
// Turns the set of wrong elements of one output into ONE line a student can act on ("only the
// last partial tile is wrong", "elements from index 768 on are wrong"), the most specific that
// holds (design.md §6).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check/fill_evidence.hpp"

namespace cugrade {

/// Which elements of one output failed, and how.
struct MismatchMask {
  std::vector<std::int64_t> dims;  ///< shape of the array ({rows, cols}, {n}, or {} for a scalar)
  std::vector<bool> wrong;         ///< per element (row-major): outside tolerance (NaN/Inf included)
  std::vector<bool> nonfinite;     ///< per element: the actual value is NaN or Inf; empty = none
  /// Per element: the bytes the actual value still holds (fills.hpp); empty = unknown. The
  /// evidence for "never written" (the runner's fill), "copied from device memory no kernel
  /// wrote" (fresh cudaMalloc memory on the CPU backend) and "added into it" (that fill, quieted).
  std::vector<Fill> fill;
  std::int64_t element_bytes = 4;  ///< bytes per element of the actual output
  /// The most threads one launch of the call had (the runner's count; 0 unknown): a grid with a
  /// thread for every element was not too small, whatever a wrong suffix suggests.
  std::int64_t launched_threads = 0;
  double largest_error = 0.0;           ///< largest |actual − expected| over finite wrong elements
  std::int64_t largest_error_index = -1;  ///< where it is; -1 when every wrong element is NaN/Inf
};

/// What a wrong suffix's line says where one launch had a thread for every element: the case's
/// evidence that its grid was large enough, which the step's summary looks for (cross_case.hpp).
inline constexpr std::string_view grid_was_large_enough = "so the grid was not too small";

/// The one-line description of the mismatch pattern; "" when nothing is wrong.
std::string describe_mismatch_pattern(const MismatchMask& mask);

}  // namespace cugrade
