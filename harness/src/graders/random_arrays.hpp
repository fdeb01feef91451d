#pragma once
// Seeded input arrays for graders: the same values on every platform.
#include <cstdint>
#include <vector>

#include "array_file.hpp"
#include "core/rng.hpp"

namespace cugrade {

/// An f32 array of shape `dims`, uniform in [-1, 1): the top 24 bits of a draw, scaled by 2^-23,
/// minus 1. Every value is exactly representable (a double from Rng::uniform rounded to float
/// could even round up to 1.0f), and neighbours almost never repeat, so a misplaced element shows.
Array uniform_f32(Rng& rng, std::vector<std::int64_t> dims);

}  // namespace cugrade
