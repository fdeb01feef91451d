#pragma once
// Where an element sits in an array, in the words a student uses: (row, col) for a matrix,
// an index for a vector.
#include <cstdint>
#include <string>
#include <vector>

namespace cugrade {

/// The coordinates of flat row-major `index` in an array of shape `dims` ({} for a scalar).
std::vector<std::int64_t> unravel_index(std::int64_t index, const std::vector<std::int64_t>& dims);

/// "(row 5, col 9)" for two coordinates, "index 17" for one, "(2, 0, 1)" for more, "the value"
/// for none (a scalar).
std::string describe_position(const std::vector<std::int64_t>& coords);

/// A magnitude in a short readable form: "0.25", "3.1e-3", "1.2e+6" (3 significant digits in
/// [0.01, 1000), 2 in exponent form outside it).
std::string format_magnitude(double value);

}  // namespace cugrade
