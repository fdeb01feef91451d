#pragma once
// What one GPU can do at best, as `cugrade calibrate` measures it (design.md §7): the ceilings
// that rates are reported against and that the roofline floor is computed from.
#include <string>

namespace cugrade {

/// Measured ceilings of one GPU; a zero field is not calibrated.
struct Ceilings {
  double copy_gbps = 0.0;     ///< device copy bandwidth, read and written bytes both counted
  double sgemm_tflops = 0.0;  ///< cuBLAS SGEMM rate, FP32 (no TF32)
  std::string gpu, driver, measured_at;
};

}  // namespace cugrade
