// How the runner calls the steps of assignment matmul: both take DEVICE pointers (the runner
// allocates, fills and poisons them) and the sizes M, N, K.
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
}

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("naive", device, matmul_naive,
                   f(c.ptr<const float>("A"), c.ptr<const float>("B"), c.ptr<float>("C"), c.i("M"),
                     c.i("N"), c.i("K"))),
      CUGRADE_STEP("tiled", device, matmul_tiled,
                   f(c.ptr<const float>("A"), c.ptr<const float>("B"), c.ptr<float>("C"), c.i("M"),
                     c.i("N"), c.i("K"))),
  };
  return steps;
}
