// How the runner calls the steps of assignment matmul: every step takes DEVICE pointers (the
// runner allocates, fills and poisons them) and the sizes M, N, K; the *_f64 steps take doubles.
// The students' four steps come from interface.cuh; the reference-only ones (the lecture steps
// not set as exercises, every step in double, the stretch kernel) from
// reference/matmul/reference_only.cuh, which only the reference's namespace declares.
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
#include "../../reference/matmul/reference_only.cuh"
}

// The call of every matmul entry point, for element type T (float or double).
#define CUGRADE_MATMUL_CALL(T) \
  f(c.ptr<const T>("A"), c.ptr<const T>("B"), c.ptr<T>("C"), c.i("M"), c.i("N"), c.i("K"))

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("naive", device, matmul_naive, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_STEP("padded", device, matmul_padded, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_STEP("tiled", device, matmul_tiled, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_STEP("coarse", device, matmul_coarse, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_REFERENCE_STEP("smem1", device, matmul_smem1, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_REFERENCE_STEP("smem4", device, matmul_smem4, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_REFERENCE_STEP("stretch", device, matmul_stretch, CUGRADE_MATMUL_CALL(float)),
      CUGRADE_REFERENCE_STEP("naive_f64", device, matmul_naive_f64, CUGRADE_MATMUL_CALL(double)),
      CUGRADE_REFERENCE_STEP("smem1_f64", device, matmul_smem1_f64, CUGRADE_MATMUL_CALL(double)),
      CUGRADE_REFERENCE_STEP("padded_f64", device, matmul_padded_f64, CUGRADE_MATMUL_CALL(double)),
      CUGRADE_REFERENCE_STEP("tiled_f64", device, matmul_tiled_f64, CUGRADE_MATMUL_CALL(double)),
      CUGRADE_REFERENCE_STEP("smem4_f64", device, matmul_smem4_f64, CUGRADE_MATMUL_CALL(double)),
      CUGRADE_REFERENCE_STEP("coarse_f64", device, matmul_coarse_f64, CUGRADE_MATMUL_CALL(double)),
  };
  return steps;
}
