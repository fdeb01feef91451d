// How the runner calls the one step of assignment vecadd: vecAdd takes HOST pointers and does
// its own allocation and copies, so the runner hands it host buffers.
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
}

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("vecadd", host, vecAdd,
                   f(c.ptr<const float>("A"), c.ptr<const float>("B"), c.ptr<float>("C"), c.i("n"))),
  };
  return steps;
}
