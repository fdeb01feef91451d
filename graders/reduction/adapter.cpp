// How the runner calls the steps of assignment reduction: each takes DEVICE pointers (the runner
// allocates, fills and poisons them), the input `in` of n ints and the one-element output `out`.
// The stretch step is reference-only (reference/reduction/reference_only.cuh).
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
#include "../../reference/reduction/reference_only.cuh"
}

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("reduce1", device, reduce_1, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce2", device, reduce_2, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce3", device, reduce_3, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce4", device, reduce_4, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce5", device, reduce_5, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce6", device, reduce_6, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_STEP("reduce7", device, reduce_7, f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
      CUGRADE_REFERENCE_STEP("stretch", device, reduce_stretch,
                             f(c.ptr<const int>("in"), c.ptr<long long>("out"), c.i("n"))),
  };
  return steps;
}
