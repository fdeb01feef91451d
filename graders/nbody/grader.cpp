// The trusted half of assignment nbody (lecture 000's 2D N-body: a_n = mG·Σ_{k≠n} (r_k − r_n) /
// |r_k − r_n|³ over the pairs farther apart than the cutoff, then r += v·τ + a·τ²/2, v += a·τ):
// inputs from the seeded generator, the gold in double, and the work of one call.
//
// Storage as in the lecture: X and Y hold NT rows of N floats, X[nt*N + i] being body i's x at
// step nt; the acceleration of step nt reads row nt−1, the position update writes row nt.
// Physics and generators: graders/nbody/physics.hpp.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graders/grader.hpp"
#include "physics.hpp"

namespace cugrade {
namespace {

using namespace nbody;

/// Parameter `name` of a case, or `fallback` when absent (-1: required); below `least` is an
/// authoring error in the spec, not the student's.
std::int64_t param(const Case& c, const char* name, std::int64_t least, std::int64_t fallback = -1) {
  const auto it = c.params.find(name);
  if (it == c.params.end()) {
    if (fallback >= 0) return fallback;
    throw std::invalid_argument("nbody case " + c.id + " needs a parameter " + name);
  }
  if (it->second < least)
    throw std::invalid_argument("nbody case " + c.id + " needs " + name + " >= " + std::to_string(least));
  return it->second;
}

/// The sizes of a case: N bodies, NT rows, and the step nt (1 ≤ nt < NT; default NT − 1, the
/// last, so that a size given as {N, NT} alone also names a step).
struct Sizes {
  std::int64_t n, rows, step;
};

Sizes sizes_of(const Case& c) {
  Sizes s{param(c, "N", 1), param(c, "NT", 2), 0};
  s.step = param(c, "nt", 1, s.rows - 1);
  if (s.step >= s.rows)
    throw std::invalid_argument("nbody case " + c.id + " needs nt < NT (step nt writes row nt)");
  return s;
}

bool is_acceleration(const std::string& step) { return step == "accel_global" || step == "accel_shared"; }
bool is_simulation(const std::string& step) { return step == "simulate_global" || step == "simulate_shared"; }

CaseData generate(const Case& c, Rng& rng) {
  const Sizes s = sizes_of(c);
  CaseData data;
  if (is_acceleration(c.step)) {
    // Every row a fresh cloud, so that reading the wrong row gives wrong numbers.
    const bool at_cutoff = param(c, "at_cutoff", 0, 0) > 0;
    Array x = make_array(DType::f32, {s.rows, s.n}), y = make_array(DType::f32, {s.rows, s.n});
    for (std::int64_t row = 0; row < s.rows; ++row)
      fill_cloud(rng, s.n, x.data<float>() + row * s.n, y.data<float>() + row * s.n, at_cutoff);
    data.inputs["X"] = std::move(x);
    data.inputs["Y"] = std::move(y);
    data.outputs["AX"] = make_array(DType::f32, {s.n});
    data.outputs["AY"] = make_array(DType::f32, {s.n});
  } else if (c.step == "position") {
    data.inputs = position_inputs(rng, s.n, s.rows);
    for (const char* name : {"X", "Y", "VX", "VY"}) data.outputs[name] = data.inputs.at(name);  // in-out
  } else if (is_simulation(c.step)) {
    data.inputs = simulation_inputs(rng, s.n, s.rows);
    for (const char* name : {"X", "Y", "VX", "VY"}) data.outputs[name] = data.inputs.at(name);  // in-out
  } else {
    throw std::invalid_argument("nbody has no step " + c.step);
  }
  return data;
}

/// The outputs of case `c` under `physics`: the gold under the lecture's, a mistake under another.
ArraySet outputs_under(const Case& c, const ArraySet& inputs, const Physics& physics) {
  const Sizes s = sizes_of(c);
  if (is_acceleration(c.step)) {
    const std::int64_t row = (physics.same_row ? s.step : s.step - 1) * s.n;
    std::vector<double> x(s.n), y(s.n);
    for (std::int64_t i = 0; i < s.n; ++i) {
      x[i] = inputs.at("X").value(row + i);
      y[i] = inputs.at("Y").value(row + i);
    }
    const Accelerations a = accelerations(x, y, physics);
    ArraySet out;
    out["AX"] = to_f64(a.ax);
    out["AY"] = to_f64(a.ay);
    // The comparator adds these to the allowed error: see ambiguous_slack in physics.hpp.
    out["AX.slack"] = to_f64(a.slack_x);
    out["AY.slack"] = to_f64(a.slack_y);
    return out;
  }
  if (c.step == "position") return position_gold(inputs, s.n, s.step, physics);
  if (is_simulation(c.step)) return simulation_gold(inputs, s.n, s.rows, physics);
  throw std::invalid_argument("nbody has no step " + c.step);
}

ArraySet gold(const Case& c, const ArraySet& inputs) { return outputs_under(c, inputs, Physics{}); }

/// A mistake of lecture 000's physics: the outputs of `steps` under `physics`.
MistakeModel physics_mistake(std::string name, std::string explanation, std::vector<std::string> steps,
                             Physics physics) {
  return {std::move(name), std::move(explanation), std::move(steps),
          [physics](const Case& c, const ArraySet& inputs) { return outputs_under(c, inputs, physics); }};
}

const std::vector<std::string> kAccelerationSteps{"accel_global", "accel_shared", "simulate_global", "simulate_shared"};
const std::vector<std::string> kPositionSteps{"position", "simulate_global", "simulate_shared"};

const std::vector<MistakeModel> mistakes{
    physics_mistake("sign flipped",
                    "your bodies push each other away: the sign of the acceleration is flipped (r_n − r_k "
                    "instead of r_k − r_n)",
                    kAccelerationSteps, {.pull = -1.0}),
    physics_mistake("no cutoff",
                    "your results count the pairs closer than 0.01 m: the cutoff is missing (in the lecture "
                    "such pairs exert no force)",
                    kAccelerationSteps, {.cutoff = 0.0}),
    physics_mistake("cutoff on the squared distance",
                    "your results leave out the pairs 0.01 to 0.1 m apart: the cutoff compares the squared "
                    "distance with 0.01 (compare the distance, or r² with 0.0001)",
                    // Not the simulations: their lattice has no pair 0.01 to 0.1 m apart.
                    {"accel_global", "accel_shared"}, {.cutoff = 0.1}),
    physics_mistake("a·τ²/2 missing",
                    "your positions move by v·τ only: the a·τ²/2 term of r += v·τ + a·τ²/2 is missing",
                    kPositionSteps, {.half = 0.0}),
    physics_mistake("½ missing",
                    "your positions move by v·τ + a·τ²: the ½ of the a·τ²/2 term is missing", kPositionSteps,
                    {.half = 1.0}),
    physics_mistake("velocity first",
                    "your positions move with the new velocity: the velocity is updated before the position "
                    "(r += v·τ + a·τ²/2 must use v before v += a·τ)",
                    kPositionSteps, {.velocity_first = true}),
    physics_mistake("wrong row",
                    "your step reads row nt, the row it is about to write: the positions it starts from are in "
                    "row nt − 1",
                    {"accel_global", "accel_shared", "position", "simulate_global", "simulate_shared"},
                    {.same_row = true}),
};

Work work(const std::string& step, const Params& params) {
  Case c;
  c.id = params_to_string(params);  // how a refusal names the size
  c.params = params;
  const Sizes s = sizes_of(c);
  const double n = static_cast<double>(s.n), steps = static_cast<double>(s.rows - 1);
  // Interactions: ordered pairs (i, k ≠ i), the lecture's N·(N−1) per step. No FLOP count: the
  // cost is in the square root and the division, which no FLOP/s ceiling describes, so the rate
  // is in interactions and the roofline floor uses only the bytes. Bytes: each input read and
  // each output written once (the positions of one row, the velocities and accelerations).
  if (is_acceleration(step))
    return Work{.bytes = 16.0 * n, .flops = 0.0, .items = n * (n - 1.0), .rate_unit = "G interactions/s"};
  if (is_simulation(step))
    return Work{.bytes = 8.0 * n * (s.rows + 2.0), .flops = 0.0, .items = steps * n * (n - 1.0),
                .rate_unit = "G interactions/s"};
  // position: read x, y of row nt−1, vx, vy, ax, ay; write x, y of row nt, vx, vy.
  return Work{.bytes = 40.0 * n, .flops = 0.0, .items = 0.0, .rate_unit = "GB/s"};
}

}  // namespace

/// Generator + gold + work + mistake models of assignment nbody. No input is sign-free: a body's
/// coordinate flipped on its own would move it away from the partner it is placed beside, and
/// perhaps into the band around the cutoff that keep_out_of_band keeps bodies out of, where a
/// correct float kernel and the reference may disagree. Instead each timed sample moves every body
/// that has room (runtime/body_reach.hpp): by up to 2 cm, never to within 0.011 m of another
/// (10 % clear of the cutoff: no pair is decided otherwise), its velocity by up to 25 m/s per metre
/// of its reach (0.5 m/s: the simulations' lattice keeps its pairs ≥ 0.14 m apart over NT = 10),
/// so that no sample's forces are an earlier one's renumbered (docs/security.md).
const Grader nbody_grader{"nbody", generate, gold, work, {.required = {"N", "NT"}, .optional = {"nt", "at_cutoff"}},
                          mistakes, {},
                          {.x = "X", .y = "Y", .vx = "VX", .vy = "VY", .keep_apart = 0.011, .reach = 0.02,
                           .speed = 25.0}};
CUGRADE_REGISTER_GRADER(nbody_grader);

}  // namespace cugrade
