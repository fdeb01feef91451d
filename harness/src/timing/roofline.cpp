#include "timing/roofline.hpp"

#include <algorithm>

namespace cugrade {

double roofline_floor_ms(const Work& work, const std::optional<Ceilings>& ceilings) {
  if (!ceilings) return 0.0;
  double floor_ms = 0.0;
  if (ceilings->copy_gbps > 0.0) floor_ms = std::max(floor_ms, work.bytes / (ceilings->copy_gbps * 1e9) * 1e3);
  if (ceilings->sgemm_tflops > 0.0)
    floor_ms = std::max(floor_ms, work.flops / (ceilings->sgemm_tflops * 1e12) * 1e3);
  return floor_ms;
}

}  // namespace cugrade
