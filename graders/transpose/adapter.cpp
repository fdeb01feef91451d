// How the runner calls the steps of assignment transpose: every step takes DEVICE pointers (the
// runner allocates, fills and poisons them) and the sizes rows, cols of `in`. The stretch step is
// reference-only (reference/transpose/reference_only.cuh, declared in the reference's namespace).
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
#include "../../reference/transpose/reference_only.cuh"
}

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("copy", device, copy_tiled,
                   f(c.ptr<const float>("in"), c.ptr<float>("out"), c.i("rows"), c.i("cols"))),
      CUGRADE_STEP("naive", device, transpose_naive,
                   f(c.ptr<const float>("in"), c.ptr<float>("out"), c.i("rows"), c.i("cols"))),
      CUGRADE_STEP("coalesced", device, transpose_coalesced,
                   f(c.ptr<const float>("in"), c.ptr<float>("out"), c.i("rows"), c.i("cols"))),
      CUGRADE_STEP("padded", device, transpose_padded,
                   f(c.ptr<const float>("in"), c.ptr<float>("out"), c.i("rows"), c.i("cols"))),
      CUGRADE_REFERENCE_STEP("stretch", device, transpose_stretch,
                             f(c.ptr<const float>("in"), c.ptr<float>("out"), c.i("rows"), c.i("cols"))),
  };
  return steps;
}
