// The grader of assignment nbody (graders/nbody/grader.cpp, physics.hpp): what the harness relies
// on to judge the lecture's N-body steps — the inputs, the double gold, the slack at the cutoff,
// and that FP32 kernels computing in other orders pass the spec's tolerances.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "graders/grader.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {
namespace {

const Grader& nbody() {
  const Grader* grader = find_grader("nbody");
  REQUIRE(grader != nullptr);
  return *grader;
}

const Spec& nbody_spec() {
  static const Spec spec = [] {
    auto loaded = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments/nbody/assignment.yaml");
    REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
    return *loaded;
  }();
  return spec;
}

Case nbody_case(const std::string& step, Params params, std::uint64_t seed = 1) {
  Case c;
  c.step = step;
  c.params = std::move(params);
  c.id = step + "/" + params_to_string(c.params) + "/seed=" + std::to_string(seed);
  c.seed = seed;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return nbody().generate(c, rng);
}

Array f32(std::int64_t rows, std::int64_t cols, std::vector<float> values) {
  Array a = make_array(DType::f32, rows > 0 ? std::vector<std::int64_t>{rows, cols} : std::vector<std::int64_t>{cols});
  REQUIRE(static_cast<std::int64_t>(values.size()) == a.size());
  for (std::size_t i = 0; i < values.size(); ++i) a.data<float>()[i] = values[i];
  return a;
}

/// How an FP32 kernel decides the cutoff and orders its sum.
enum class Cutoff { greater, greater_equal, squared };
struct Fp32Kernel {
  Cutoff cutoff = Cutoff::greater;
  bool reversed = false;
  bool fma = false;
};

/// The acceleration of every body from row `row` of X, Y, in FP32 as a kernel computes it.
ArraySet fp32_accelerations(const float* x, const float* y, std::int64_t n, Fp32Kernel k) {
  ArraySet out{{"AX", make_array(DType::f32, {n})}, {"AY", make_array(DType::f32, {n})}};
  for (std::int64_t i = 0; i < n; ++i) {
    float ax = 0.f, ay = 0.f;
    for (std::int64_t jj = 0; jj < n; ++jj) {
      const std::int64_t j = k.reversed ? n - 1 - jj : jj;
      if (j == i) continue;
      const float xx = x[j] - x[i], yy = y[j] - y[i];
      const float d2 = k.fma ? std::fmaf(xx, xx, yy * yy) : xx * xx + yy * yy;
      const float rr = std::sqrt(d2);
      const bool counts = k.cutoff == Cutoff::greater ? rr > 0.01f
                          : k.cutoff == Cutoff::greater_equal ? rr >= 0.01f : d2 > 1e-4f;
      if (!counts) continue;
      const float f = 10.f / (rr * rr * rr);
      ax = k.fma ? std::fmaf(xx, f, ax) : ax + xx * f;
      ay = k.fma ? std::fmaf(yy, f, ay) : ay + yy * f;
    }
    out.at("AX").data<float>()[i] = ax;
    out.at("AY").data<float>()[i] = ay;
  }
  return out;
}

/// The FP32 outputs of one acceleration case (row nt − 1 of its inputs).
ArraySet fp32_case(const Case& c, const CaseData& data, Fp32Kernel k) {
  const std::int64_t n = c.params.at("N"), row = (c.params.at("nt") - 1) * n;
  return fp32_accelerations(data.inputs.at("X").data<float>() + row, data.inputs.at("Y").data<float>() + row, n, k);
}

/// Wrong elements of `actual` against `gold` under the step's tolerance, with or without the
/// gold's "<output>.slack" added to the allowance (as harness/src/check/compare.cpp does).
std::int64_t wrong_elements(const ArraySet& actual, const ArraySet& gold, const Tolerance& tol, bool slack) {
  std::int64_t wrong = 0;
  for (const auto& [name, a] : actual)
    for (std::int64_t i = 0; i < a.size(); ++i) {
      const double y = gold.at(name).value(i);
      const double allowed = tol.atol + tol.rtol * std::fabs(y) + (slack ? gold.at(name + ".slack").value(i) : 0.0);
      wrong += !(std::fabs(a.value(i) - y) <= allowed);
    }
  return wrong;
}

/// The largest |x − y| / (atol + rtol·|y|) over the outputs named in `actual`.
double worst_ratio(const ArraySet& actual, const ArraySet& gold, const Tolerance& tol) {
  double worst = 0.0;
  for (const auto& [name, a] : actual)
    for (std::int64_t i = 0; i < a.size(); ++i) {
      const double y = gold.at(name).value(i);
      worst = std::max(worst, std::fabs(a.value(i) - y) / (tol.atol + tol.rtol * std::fabs(y)));
    }
  return worst;
}

/// One FP32 step of the lecture's Position_GPU over X, Y, VX, VY (in place), `reassociated` as
/// r + (v + a·τ/2)·τ.
void fp32_position(ArraySet& s, const float* ax, const float* ay, std::int64_t n, std::int64_t nt, bool reassociated) {
  const float tau = 0.001f;
  float* x = s.at("X").data<float>();
  float* y = s.at("Y").data<float>();
  float* vx = s.at("VX").data<float>();
  float* vy = s.at("VY").data<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t to = nt * n + i, from = (nt - 1) * n + i;
    x[to] = reassociated ? x[from] + (vx[i] + 0.5f * ax[i] * tau) * tau : x[from] + vx[i] * tau + ax[i] * tau * tau * 0.5f;
    y[to] = reassociated ? y[from] + (vy[i] + 0.5f * ay[i] * tau) * tau : y[from] + vy[i] * tau + ay[i] * tau * tau * 0.5f;
    vx[i] += ax[i] * tau;
    vy[i] += ay[i] * tau;
  }
}

using Dims = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("nbody_grader::generate") {
  SUBCASE("the same seed gives the same bytes; another seed other inputs") {
    const Case c = nbody_case("accel_global", {{"N", 300}, {"NT", 3}, {"nt", 2}});
    Case other = c;
    other.seed = 2;
    CHECK(generate(c).inputs.at("X").bytes == generate(c).inputs.at("X").bytes);
    CHECK(generate(c).inputs.at("X").bytes != generate(other).inputs.at("X").bytes);
  }
  SUBCASE("shapes: X, Y are NT×N; the position and simulation steps' X, Y, VX, VY are in-out") {
    const CaseData accel = generate(nbody_case("accel_shared", {{"N", 7}, {"NT", 3}, {"nt", 1}}));
    CHECK(accel.inputs.at("X").dims == Dims{3, 7});
    CHECK(accel.outputs.at("AX").dims == Dims{7});
    CHECK_FALSE(accel.outputs.contains("X"));
    for (const char* step : {"position", "simulate_global"}) {
      const CaseData data = generate(nbody_case(step, {{"N", 7}, {"NT", 3}, {"nt", 2}}));
      for (const char* name : {"X", "Y", "VX", "VY"}) {
        CAPTURE(step);
        CAPTURE(name);
        REQUIRE(data.outputs.contains(name));
        CHECK(data.outputs.at(name).dims == data.inputs.at(name).dims);
      }
    }
  }
  SUBCASE("no pair of a cloud lies in the cutoff's band; an at_cutoff cloud plants a quarter of its bodies there") {
    const Case plain = nbody_case("accel_global", {{"N", 2049}, {"NT", 2}, {"nt", 1}});
    const ArraySet gold = nbody().gold(plain, generate(plain).inputs);
    for (std::int64_t i = 0; i < 2049; ++i) CHECK(gold.at("AX.slack").value(i) == 0.0);
    const Case planted = nbody_case("accel_global", {{"N", 600}, {"NT", 2}, {"nt", 1}, {"at_cutoff", 1}});
    const ArraySet slack = nbody().gold(planted, generate(planted).inputs);
    std::int64_t forgiven = 0;
    for (std::int64_t i = 0; i < 600; ++i) forgiven += slack.at("AX.slack").value(i) > 0.0;
    CHECK(forgiven >= 2 * 149);  // both bodies of each of the 150 planted pairs
  }
  SUBCASE("a spec's mistake is an authoring error, not the student's") {
    CHECK_THROWS_AS(generate(nbody_case("accel_global", {{"NT", 2}, {"nt", 1}})), std::invalid_argument);
    CHECK_THROWS_AS(generate(nbody_case("accel_global", {{"N", 4}, {"NT", 2}, {"nt", 2}})), std::invalid_argument);
    CHECK_THROWS_AS(generate(nbody_case("simulate_shared", {{"N", 4}, {"NT", 1}})), std::invalid_argument);
    CHECK_THROWS_AS(generate(nbody_case("teleport", {{"N", 4}, {"NT", 2}})), std::invalid_argument);
  }
}

TEST_CASE("nbody_grader::gold") {
  const Case accel = nbody_case("accel_global", {{"N", 3}, {"NT", 2}, {"nt", 1}});
  SUBCASE("mG/r² toward the other body; a pair inside the cutoff and the body itself add nothing") {
    // Bodies 0 and 1 are 0.005 m apart (no force), body 2 is 2 m above body 0.
    const ArraySet in{{"X", f32(2, 3, {0.f, 0.005f, 0.f, 9.f, 9.f, 9.f})}, {"Y", f32(2, 3, {0.f, 0.f, 2.f, 9.f, 9.f, 9.f})}};
    const ArraySet gold = nbody().gold(accel, in);
    CHECK(gold.at("AX").value(0) == 0.0);
    CHECK(gold.at("AY").value(0) == doctest::Approx(10.0 / 4.0));
    CHECK(gold.at("AY").value(2) == doctest::Approx(-10.0 / 4.0 - 10.0 * 2.0 / std::pow(0.005 * 0.005 + 4.0, 1.5)));
  }
  SUBCASE("a pair at the cutoff: counted only beyond 0.01 m, and its pull is both bodies' slack") {
    const ArraySet in{{"X", f32(2, 3, {0.f, 0.01f, 5.f, 0.f, 0.f, 0.f})}, {"Y", f32(2, 3, {0.f, 0.f, 5.f, 0.f, 0.f, 0.f})}};
    const ArraySet gold = nbody().gold(accel, in);
    const double pull = 10.0 / (double(0.01f) * double(0.01f));  // 0.01f is just below 0.01
    CHECK(gold.at("AX.slack").value(0) == doctest::Approx(pull));
    CHECK(gold.at("AX.slack").value(1) == doctest::Approx(pull));
    CHECK(gold.at("AX.slack").value(2) == 0.0);
    CHECK(std::fabs(gold.at("AX").value(0)) < 1.0);  // not counted: only body 2's pull
  }
  SUBCASE("position: row nt from row nt − 1 with the old velocity, then v += a·τ; other rows kept") {
    const Case c = nbody_case("position", {{"N", 1}, {"NT", 3}, {"nt", 2}});
    const ArraySet in{{"X", f32(3, 1, {7.f, 1.f, 7.f})}, {"Y", f32(3, 1, {7.f, 2.f, 7.f})}, {"VX", f32(0, 1, {3.f})},
                      {"VY", f32(0, 1, {-4.f})}, {"AX", f32(0, 1, {100.f})}, {"AY", f32(0, 1, {0.f})}};
    const ArraySet gold = nbody().gold(c, in);
    const double tau = 0.001f;
    CHECK(gold.at("X").value(2) == doctest::Approx(1.0 + 3.0 * tau + 100.0 * tau * tau / 2));
    CHECK(gold.at("Y").value(2) == doctest::Approx(2.0 - 4.0 * tau));
    CHECK(gold.at("X").value(0) == 7.0);
    CHECK(gold.at("VX").value(0) == doctest::Approx(3.0 + 100.0 * tau));
  }
  SUBCASE("simulation: a lone body moves in a straight line, one row per step") {
    const Case c = nbody_case("simulate_global", {{"N", 1}, {"NT", 4}});
    const ArraySet in{{"X", f32(4, 1, {1.f, 9.f, 9.f, 9.f})}, {"Y", f32(4, 1, {0.f, 9.f, 9.f, 9.f})},
                      {"VX", f32(0, 1, {2.f})}, {"VY", f32(0, 1, {0.f})}};
    const ArraySet gold = nbody().gold(c, in);
    for (int nt = 0; nt < 4; ++nt) CHECK(gold.at("X").value(nt) == doctest::Approx(1.0 + 2.0 * 0.001f * nt));
  }
  SUBCASE("a simulation in which a pair comes near the cutoff is refused as a harness bug") {
    const Case c = nbody_case("simulate_global", {{"N", 2}, {"NT", 2}});
    const ArraySet in{{"X", f32(2, 2, {0.f, 0.01005f, 0.f, 0.f})}, {"Y", f32(2, 2, {0.f, 0.f, 0.f, 0.f})},
                      {"VX", f32(0, 2, {0.f, 0.f})}, {"VY", f32(0, 2, {0.f, 0.f})}};
    CHECK_THROWS_AS((void)nbody().gold(c, in), std::logic_error);
  }
}

TEST_CASE("nbody_grader::tolerance") {
  const Spec& spec = nbody_spec();
  SUBCASE("accelerations: FP32 sums in other orders and cutoff tests stay within a third of the tolerance") {
    const Tolerance& tol = spec.find_step("accel_global")->tolerance;
    const Case c = nbody_case("accel_global", {{"N", 2049}, {"NT", 2}, {"nt", 1}});
    const CaseData data = generate(c);
    const ArraySet gold = nbody().gold(c, data.inputs);
    for (Fp32Kernel k : {Fp32Kernel{}, Fp32Kernel{Cutoff::squared, true, true}, Fp32Kernel{Cutoff::greater_equal, false, true}})
      CHECK(worst_ratio(fp32_case(c, data, k), gold, tol) < 1.0 / 3);
  }
  SUBCASE("pairs planted at the cutoff: kernels deciding them either way pass with the slack, and would not without it") {
    const Tolerance& tol = spec.find_step("accel_shared")->tolerance;
    const Case c = nbody_case("accel_shared", {{"N", 600}, {"NT", 2}, {"nt", 1}, {"at_cutoff", 1}});
    const CaseData data = generate(c);
    const ArraySet gold = nbody().gold(c, data.inputs);
    for (Fp32Kernel k : {Fp32Kernel{}, Fp32Kernel{Cutoff::greater_equal}, Fp32Kernel{Cutoff::squared, true, true}}) {
      const ArraySet out = fp32_case(c, data, k);
      CHECK(wrong_elements(out, gold, tol, true) == 0);
      CHECK(wrong_elements(out, gold, tol, false) > 10);
    }
  }
  SUBCASE("position and simulation: FP32 updates, in two associations, stay within a third of the tolerance") {
    const Case pos = nbody_case("position", {{"N", 5000}, {"NT", 3}, {"nt", 2}});
    const CaseData pos_data = generate(pos);
    const ArraySet pos_gold = nbody().gold(pos, pos_data.inputs);
    const Case sim = nbody_case("simulate_shared", {{"N", 257}, {"NT", 10}});
    const CaseData sim_data = generate(sim);
    const ArraySet sim_gold = nbody().gold(sim, sim_data.inputs);
    for (bool reassociated : {false, true}) {
      ArraySet state = pos_data.inputs;
      fp32_position(state, state.at("AX").data<float>(), state.at("AY").data<float>(), 5000, 2, reassociated);
      state.erase("AX");
      state.erase("AY");
      CHECK(worst_ratio(state, pos_gold, spec.find_step("position")->tolerance) < 1.0 / 3);

      ArraySet run = sim_data.inputs;
      for (std::int64_t nt = 1; nt < 10; ++nt) {
        const ArraySet a = fp32_accelerations(run.at("X").data<float>() + (nt - 1) * 257,
                                              run.at("Y").data<float>() + (nt - 1) * 257, 257,
                                              Fp32Kernel{Cutoff::greater, reassociated, reassociated});
        fp32_position(run, a.at("AX").data<float>(), a.at("AY").data<float>(), 257, nt, reassociated);
      }
      CHECK(worst_ratio(run, sim_gold, spec.find_step("simulate_shared")->tolerance) < 1.0 / 3);
    }
  }
}

TEST_CASE("nbody_grader::work") {
  const Work accel = nbody().work("accel_shared", Params{{"N", 20480}, {"NT", 2}, {"nt", 1}});
  CHECK(accel.items == 20480.0 * 20479.0);
  CHECK(accel.rate_unit == "G interactions/s");
  const Work sim = nbody().work("simulate_global", Params{{"N", 10240}, {"NT", 10}});
  CHECK(sim.items == 9.0 * 10240.0 * 10239.0);
  CHECK(sim.bytes > 0.0);
  CHECK(nbody().work("position", Params{{"N", 1000}, {"NT", 2}}).rate_unit == "GB/s");
}

TEST_CASE("nbody_grader::spec cases") {
  // Every case the spec declares, hidden ones included, can be generated and judged; the gold
  // of every output has the output's shape (and so has its slack).
  for (const Case& c : expand_cases(nbody_spec(), CourseSecret("12345"))) {
    if (c.step == "accel_shared" || c.step == "simulate_global") continue;  // same generator and gold
    CAPTURE(c.id);
    const CaseData data = generate(c);
    const ArraySet gold = nbody().gold(c, data.inputs);
    for (const auto& [name, out] : data.outputs) CHECK(gold.at(name).dims == out.dims);
  }
}

}  // namespace cugrade
