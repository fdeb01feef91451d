#pragma once
// One-dimensional arrays of given values, for tests that build outputs and golds by hand
// (header-only: the test executables link nothing in common).
#include <cstdint>
#include <vector>

#include "array_file.hpp"

namespace cugrade::test {

/// A float32 array holding `values`.
inline Array f32(const std::vector<float>& values) {
  Array a = make_array(DType::f32, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) a.data<float>()[i] = values[i];
  return a;
}

/// A float64 array holding `values`.
inline Array f64(const std::vector<double>& values) {
  Array a = make_array(DType::f64, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) a.data<double>()[i] = values[i];
  return a;
}

}  // namespace cugrade::test
