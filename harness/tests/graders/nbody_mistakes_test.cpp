// The mistake models of assignment nbody (graders/nbody/grader.cpp): FP32 kernels with the
// lecture's physics gone wrong in one way each are named for that way, and a right one is not.
#include <doctest/doctest.h>

#include <cmath>

#include "graders/grader.hpp"
#include "mistake_fixture.hpp"

namespace cugrade {
namespace {

const Grader& nbody() { return testing::registered_grader("nbody"); }

Case nbody_case(const std::string& step, Params params) {
  Case c;
  c.step = step;
  c.params = std::move(params);
  c.id = step + "/" + params_to_string(c.params) + "/seed=1";
  c.seed = 1;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return nbody().generate(c, rng);
}

/// How an FP32 kernel gets the lecture's physics wrong (the defaults get it right).
struct Slip {
  float pull = 1.f;           ///< -1: r_n − r_k
  float cutoff = 0.01f;       ///< compared with the distance (or, `squared`, with its square)
  bool squared = false;
  float half = 0.5f;          ///< the factor of a·τ²
  bool velocity_first = false;
  std::int64_t row_shift = 1;  ///< step nt reads row nt − row_shift
};

/// The accelerations of the n bodies at x, y, in FP32 with `slip`.
void fp32_accelerations(const float* x, const float* y, std::int64_t n, const Slip& slip, float* ax, float* ay) {
  for (std::int64_t i = 0; i < n; ++i) {
    ax[i] = ay[i] = 0.f;
    for (std::int64_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const float xx = slip.pull * (x[j] - x[i]), yy = slip.pull * (y[j] - y[i]);
      const float d2 = xx * xx + yy * yy, rr = std::sqrt(d2);
      if (!((slip.squared ? d2 : rr) > slip.cutoff)) continue;
      const float f = 10.f / (rr * rr * rr);
      ax[i] += xx * f;
      ay[i] += yy * f;
    }
  }
}

/// One FP32 position update of step nt in place (X, Y, VX, VY of `s`) with `slip`.
void fp32_position(ArraySet& s, const float* ax, const float* ay, std::int64_t n, std::int64_t nt, const Slip& slip) {
  const float tau = 0.001f;
  for (const char* axis : {"X", "Y"}) {
    float* r = s.at(axis).data<float>();
    float* v = s.at(std::string("V") + axis).data<float>();
    const float* a = axis[0] == 'X' ? ax : ay;
    for (std::int64_t i = 0; i < n; ++i) {
      if (slip.velocity_first) v[i] += a[i] * tau;
      r[nt * n + i] = r[(nt - slip.row_shift) * n + i] + v[i] * tau + a[i] * tau * tau * slip.half;
      if (!slip.velocity_first) v[i] += a[i] * tau;
    }
  }
}

/// The outputs of case `c` as an FP32 kernel with `slip` computes them.
ArraySet fp32_outputs(const Case& c, const CaseData& data, const Slip& slip) {
  const std::int64_t n = c.params.at("N"), rows = c.params.at("NT");
  ArraySet s = data.inputs;
  std::vector<float> ax(n), ay(n);
  if (c.step == "accel_global") {
    const std::int64_t row = (c.params.at("nt") - slip.row_shift) * n;
    fp32_accelerations(s.at("X").data<float>() + row, s.at("Y").data<float>() + row, n, slip, ax.data(), ay.data());
    Array out_x = make_array(DType::f32, {n}), out_y = make_array(DType::f32, {n});
    std::copy(ax.begin(), ax.end(), out_x.data<float>());
    std::copy(ay.begin(), ay.end(), out_y.data<float>());
    return ArraySet{{"AX", std::move(out_x)}, {"AY", std::move(out_y)}};
  }
  if (c.step == "position") {
    fp32_position(s, s.at("AX").data<float>(), s.at("AY").data<float>(), n, c.params.at("nt"), slip);
    s.erase("AX");
    s.erase("AY");
    return s;
  }
  for (std::int64_t nt = 1; nt < rows; ++nt) {
    fp32_accelerations(s.at("X").data<float>() + (nt - 1) * n, s.at("Y").data<float>() + (nt - 1) * n, n, slip,
                       ax.data(), ay.data());
    fp32_position(s, ax.data(), ay.data(), n, nt, Slip{.half = slip.half, .velocity_first = slip.velocity_first});
  }
  return s;
}

/// What the models say of case `c` computed with `slip`.
std::string named(const Case& c, const Slip& slip) {
  const CaseData data = generate(c);
  return testing::named_mistake(nbody(), c, data.inputs, fp32_outputs(c, data, slip));
}

}  // namespace

TEST_CASE("nbody_grader::mistakes") {
  using testing::explanation_of;
  const Case accel = nbody_case("accel_global", {{"N", 257}, {"NT", 3}, {"nt", 2}});
  const Case position = nbody_case("position", {{"N", 255}, {"NT", 3}, {"nt", 1}});
  const Case simulation = nbody_case("simulate_global", {{"N", 100}, {"NT", 10}});
  SUBCASE("right FP32 results are no mistake") {
    CHECK(named(accel, {}) == "");
    CHECK(named(position, {}) == "");
    CHECK(named(simulation, {}) == "");
  }
  SUBCASE("the accelerations: sign, cutoff, the squared distance, the row") {
    CHECK(named(accel, {.pull = -1.f}) == explanation_of(nbody(), "sign flipped"));
    CHECK(named(accel, {.cutoff = 0.f}) == explanation_of(nbody(), "no cutoff"));
    CHECK(named(accel, {.squared = true}) == explanation_of(nbody(), "cutoff on the squared distance"));
    CHECK(named(accel, {.row_shift = 0}) == explanation_of(nbody(), "wrong row"));
  }
  SUBCASE("the position update: a·τ²/2 or its ½ missing, the velocity first, the row") {
    CHECK(named(position, {.half = 0.f}) == explanation_of(nbody(), "a·τ²/2 missing"));
    CHECK(named(position, {.half = 1.f}) == explanation_of(nbody(), "½ missing"));
    CHECK(named(position, {.velocity_first = true}) == explanation_of(nbody(), "velocity first"));
    CHECK(named(position, {.row_shift = 0}) == explanation_of(nbody(), "wrong row"));
  }
  SUBCASE("a whole simulation with one slip is named for it") {
    CHECK(named(simulation, {.pull = -1.f}) == explanation_of(nbody(), "sign flipped"));
    CHECK(named(simulation, {.velocity_first = true}) == explanation_of(nbody(), "velocity first"));
    CHECK(named(simulation, {.half = 0.f}) == explanation_of(nbody(), "a·τ²/2 missing"));
  }
}

}  // namespace cugrade
