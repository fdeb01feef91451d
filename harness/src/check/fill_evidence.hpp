#pragma once
// Evidence in the values of a wrong output (design.md §6: a hint speaks only on its own
// evidence): which never-written memory an element still holds, and what a wrong output's values
// have in common with the gold (a constant integer offset, half of each element written, the gold
// stored transposed). check/pattern.cpp and check/compare.cpp speak from it.
#include <cstdint>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What an element of an output holds, where that is memory nobody computed.
enum class Fill : std::uint8_t {
  none,          ///< anything else (computed, right or wrong)
  output,        ///< exactly the runner's output fill: never written (or never copied back)
  output_added,  ///< that fill quieted (f32, x86): arithmetic on it, the kernel added into the output
  output_partial,  ///< f32: its first bytes written, the last still the fill (a copy stopped inside it)
  device,        ///< exactly fresh cudaMalloc memory of the CPU backend: no kernel wrote it
  device_added,  ///< that fill as a quiet NaN (f32): arithmetic on memory that was never zeroed
};

/// What element `i` of `actual` holds (harness/runtime/fills.hpp), from its bytes.
Fill fill_of(const Array& actual, std::int64_t i);

/// One line on what the wrong elements' values (`wrong`, per element) show beyond their
/// positions, or "" when they show nothing: every wrong integer off by the same amount (that of
/// fresh cudaMalloc memory: never zeroed; a multiple of 2^16 or 2^32: an overflow), the low half
/// of each wrong 64-bit integer right and the high half still the fill (an int stored into a long
/// long), a matrix holding the gold at transposed positions (within `tol`), or at the places a
/// wrong row or column stride puts it (index_evidence.hpp).
std::string describe_value_evidence(const Array& actual, const Array& expected, const std::vector<bool>& wrong,
                                    const Tolerance& tol);

}  // namespace cugrade
