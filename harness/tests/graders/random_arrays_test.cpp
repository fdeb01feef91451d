// uniform_f32 and uniform_f64: the shape asked for, values in [-1, 1) on a 2^-23 (2^-52) grid,
// the same for the same seed.
#include "graders/random_arrays.hpp"

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("graders::uniform_f32") {
  cugrade::Rng rng(5);
  const cugrade::Array a = cugrade::uniform_f32(rng, {3, 7});
  CHECK(a.type == cugrade::DType::f32);
  CHECK(a.dims == std::vector<std::int64_t>{3, 7});
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const double v = a.value(i);
    CHECK((v >= -1.0 && v < 1.0));
    CHECK(std::ldexp(v + 1.0, 23) == std::floor(std::ldexp(v + 1.0, 23)));  // exact in float
  }
  cugrade::Rng again(5);
  CHECK(cugrade::uniform_f32(again, {3, 7}).bytes == a.bytes);
}

TEST_CASE("graders::uniform_f64") {
  cugrade::Rng rng(5);
  const cugrade::Array a = cugrade::uniform_f64(rng, {4, 9});
  CHECK(a.type == cugrade::DType::f64);
  CHECK(a.dims == std::vector<std::int64_t>{4, 9});
  bool beyond_float = false;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const double v = a.value(i);
    CHECK((v >= -1.0 && v < 1.0));
    CHECK(std::ldexp(v + 1.0, 52) == std::floor(std::ldexp(v + 1.0, 52)));
    beyond_float = beyond_float || static_cast<double>(static_cast<float>(v)) != v;
  }
  CHECK(beyond_float);  // not float values in disguise: FP64 kernels are checked as such
  cugrade::Rng again(5);
  CHECK(cugrade::uniform_f64(again, {4, 9}).bytes == a.bytes);
}
