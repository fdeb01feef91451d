// How the runner calls the steps of assignment nbody: every step takes DEVICE pointers (the
// runner allocates and fills them; X, Y, VX, VY of the position and simulation steps are
// in-out: they start as the inputs and are compared after the call) and the sizes N, NT, nt.
#include "adapter.hpp"
#include "interface.cuh"

// The reference's declarations: interface.cuh has no include guard for exactly this.
namespace cugrade_reference {
#include "interface.cuh"
}

namespace {

/// The lecture's time step; graders/nbody/physics.hpp's kTau must be the same value.
constexpr float kTau = 0.001f;

/// The step nt a call is for: the case's `nt`, or NT − 1 (the last step) when the size names
/// only N and NT, as the bench tables do (graders/nbody/grader.cpp chooses the same).
int step_of(const cugrade::Call& c) { return c.params.count("nt") ? c.i("nt") : c.i("NT") - 1; }

}  // namespace

const std::vector<cugrade::StepAdapter>& cugrade::adapter_steps() {
  static const std::vector<StepAdapter> steps = {
      CUGRADE_STEP("accel_global", device, nbody_accel_global,
                   f(c.ptr<const float>("X"), c.ptr<const float>("Y"), c.ptr<float>("AX"),
                     c.ptr<float>("AY"), step_of(c), c.i("N"))),
      CUGRADE_STEP("accel_shared", device, nbody_accel_shared,
                   f(c.ptr<const float>("X"), c.ptr<const float>("Y"), c.ptr<float>("AX"),
                     c.ptr<float>("AY"), step_of(c), c.i("N"))),
      CUGRADE_STEP("position", device, nbody_position,
                   f(c.ptr<float>("X"), c.ptr<float>("Y"), c.ptr<float>("VX"), c.ptr<float>("VY"),
                     c.ptr<const float>("AX"), c.ptr<const float>("AY"), kTau, step_of(c), c.i("N"))),
      CUGRADE_STEP("simulate_global", device, nbody_simulate_global,
                   f(c.ptr<float>("X"), c.ptr<float>("Y"), c.ptr<float>("VX"), c.ptr<float>("VY"),
                     kTau, c.i("NT"), c.i("N"))),
      CUGRADE_STEP("simulate_shared", device, nbody_simulate_shared,
                   f(c.ptr<float>("X"), c.ptr<float>("Y"), c.ptr<float>("VX"), c.ptr<float>("VY"),
                     kTau, c.i("NT"), c.i("N"))),
  };
  return steps;
}
