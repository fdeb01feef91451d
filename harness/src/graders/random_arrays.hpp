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

/// An f64 array of shape `dims`, uniform in [-1, 1): the top 53 bits of a draw, scaled by 2^-52,
/// minus 1. The values use the whole double mantissa, so a kernel that rounds them to float
/// (or computes in float) is off by ~1e-8 per term and shows against an FP64 tolerance.
Array uniform_f64(Rng& rng, std::vector<std::int64_t> dims);

}  // namespace cugrade
