#include "graders/random_arrays.hpp"

namespace cugrade {

Array uniform_f32(Rng& rng, std::vector<std::int64_t> dims) {
  Array array = make_array(DType::f32, std::move(dims));
  float* values = array.data<float>();
  for (std::int64_t i = 0; i < array.size(); ++i)
    values[i] = static_cast<float>(rng.next_u64() >> 40) * 0x1p-23f - 1.0f;
  return array;
}

Array uniform_f64(Rng& rng, std::vector<std::int64_t> dims) {
  Array array = make_array(DType::f64, std::move(dims));
  double* values = array.data<double>();
  for (std::int64_t i = 0; i < array.size(); ++i)
    values[i] = static_cast<double>(rng.next_u64() >> 11) * 0x1p-52 - 1.0;
  return array;
}

}  // namespace cugrade
