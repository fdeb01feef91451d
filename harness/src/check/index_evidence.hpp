#pragma once
// Which elements are wrong, in index terms (design.md §6: a hint speaks only on its own
// evidence): a wrong output that holds the gold's own values, each at the place a wrong index
// puts it, says which index: a matrix's rows taken the wrong distance apart (a leading dimension
// taken from the other size), or a vector whose blocks overlap because its index lacks the
// factor blockDim.x. Where the grid was large enough, "does the grid cover the whole input?"
// would mislead; this names the index instead. check/compare.cpp and check/pattern.cpp speak
// from it; check/cross_case.cpp and the race checks (pipeline/schedule_race.hpp) read its marks.
#include <cstdint>
#include <string>
#include <string_view>

#include "array_file.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// In every line that names a wrong index from the values' places: the step's summary takes the
/// case as explained, not as a question about its grid or an overflow.
inline constexpr std::string_view index_is_wrong = "the index is wrong";

/// In a line whose wrong index sends several elements to one place: which of them stays can
/// change from run to run, so two runs that disagree show that collision, not a missing barrier.
inline constexpr std::string_view stores_collide = "several elements are stored at one index";

/// For a matrix `actual` (R×C, floating point) that holds the gold's element (i, j) at i·a + j
/// (a ≠ C: rows taken a apart) or at j·b + i (b ≠ R: columns taken b apart, row and column
/// swapped), every place that index stores to holding one of the elements it sends there (within
/// `tol`): that index and what follows from it (rows that overlap, elements it never reaches),
/// with index_is_wrong; "" when no such index explains the wrong elements.
std::string describe_stride_evidence(const Array& actual, const Array& expected, const Tolerance& tol);

/// For a vector whose elements from `first_wrong` on are wrong while one launch of `threads`
/// threads had one for every element: where `first_wrong` is where blocks of B threads stop
/// when block b starts at b·s instead of b·B (s = 0, threadIdx.x alone; s = 1, blockIdx.x +
/// threadIdx.x; s = gridDim.x), that index, with index_is_wrong; "" otherwise.
std::string describe_block_start_evidence(std::int64_t first_wrong, std::int64_t threads);

}  // namespace cugrade
