#pragma once
// The physics of assignment nbody in double precision, and the seeded initial states its cases
// are drawn from (included by graders/nbody/grader.cpp only).
//
// Lecture 000: a_n = mG · Σ_{k≠n} (r_k − r_n) / |r_k − r_n|³ with mG = 10, a pair closer than
// 0.01 m contributes nothing; r_{i+1} = r_i + v_i·τ + a_i·τ²/2, v_{i+1} = v_i + a_i·τ, τ = 0.001 s.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "core/rng.hpp"

namespace cugrade::nbody {

constexpr double kMassG = 10.0;   ///< the lecture's mG (`10.f`)
constexpr double kCutoff = 0.01;  ///< pairs at most this far apart contribute nothing (`rr > 0.01f`)
/// The time step the runner passes as `tau` (graders/nbody/adapter.cpp passes the same 0.001f).
constexpr float kTau = 0.001f;

/// Half-width of the band around the cutoff, relative to it, where a correct FP32 kernel and the
/// double gold may decide a pair differently. Why 2^-16 (1.5e-5): in FP32 the difference of two
/// coordinates is correctly rounded (2^-24 relative), the squared distance adds three roundings,
/// sqrtf one (two ulps with --use_fast_math, or via rsqrtf), and 0.01f is 2.2e-8 below 0.01: at
/// most ~10·2^-24 = 6e-7 in all, whichever of `rr > 0.01f`, `rr*rr > 1e-4f` or rsqrtf a kernel
/// uses. The band is 25 times that, and still narrow: a cloud of 10240 bodies has a pair in it
/// about once in 25 draws (keep_out_of_band then redraws one of its bodies).
constexpr double kBand = 0x1p-16;

/// Mean spacing of the acceleration steps' cloud (m): dense, so that about 6 % of the bodies
/// have a neighbour inside the cutoff and many more one just outside it.
constexpr double kCloudSpacing = 0.05;

/// The simulation's lattice cell (m); each body sits within a quarter cell of its cell's centre.
constexpr double kCell = 0.5;

/// How close to the cutoff a pair may come during the gold's simulation (m). The lattice keeps
/// every pair ≥ 0.003 m from it for the NT of the cases; FP32 trajectories drift from the double
/// ones by ~1e-5 m, so no pair can be decided differently by a correct kernel.
constexpr double kSimulationMargin = 1e-4;

constexpr double kTwoPi = 6.283185307179586;  ///< a full turn, for random directions

/// An f64 vector array holding `values`.
inline Array to_f64(const std::vector<double>& values) {
  Array array = make_array(DType::f64, {static_cast<std::int64_t>(values.size())});
  std::copy(values.begin(), values.end(), array.data<double>());
  return array;
}

/// An f32 array of shape `dims`, uniform in [lo, hi).
inline Array uniform_array(Rng& rng, std::vector<std::int64_t> dims, double lo, double hi) {
  Array array = make_array(DType::f32, std::move(dims));
  float* values = array.data<float>();
  for (std::int64_t i = 0; i < array.size(); ++i) values[i] = static_cast<float>(rng.uniform(lo, hi));
  return array;
}

/// Body k placed at a random angle, `distance` from body `anchor` (rounded to float).
inline void place_near(Rng& rng, float* x, float* y, std::int64_t k, std::int64_t anchor, double distance) {
  const double angle = rng.uniform(0.0, kTwoPi);
  x[k] = static_cast<float>(x[anchor] + distance * std::cos(angle));
  y[k] = static_cast<float>(y[anchor] + distance * std::sin(angle));
}

/// The distance of bodies i and k, in double from their float coordinates (exact differences).
inline double distance(const float* x, const float* y, std::int64_t i, std::int64_t k) {
  const double dx = static_cast<double>(x[k]) - x[i], dy = static_cast<double>(y[k]) - y[i];
  return std::sqrt(dx * dx + dy * dy);
}

/// The lecture's physics (the defaults), or a mistake the grader's models make of it.
struct Physics {
  double cutoff = kCutoff;      ///< pairs at most this far apart contribute nothing
  double pull = 1.0;            ///< −1: every pull a push (r_n − r_k for r_k − r_n)
  double half = 0.5;            ///< the factor of a·τ² in the position update
  bool velocity_first = false;  ///< v += a·τ first, and r moved with the new v
  bool same_row = false;        ///< step nt reads positions from row nt (the one it writes), not nt − 1
};

/// Whether a pair `d` apart (in double) is within the band around `cutoff`.
inline bool in_band(double d, double cutoff = kCutoff) { return std::fabs(d - cutoff) <= kBand * cutoff; }

/// Redraws (uniformly in the square of side `side`) one body of every pair whose distance is in
/// the band, until none is. Why: the check forgives such pairs (the slack below), but the
/// verification after timing compares the student's FP32 output with the reference's, which has
/// no gold to forgive anything; a cloud without such pairs makes both comparisons exact in
/// their decisions. Sort and sweep along x: only pairs less than a cutoff apart in x are looked at.
inline void keep_out_of_band(Rng& rng, std::int64_t n, float* x, float* y, double side) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  for (bool clean = false; !clean;) {
    clean = true;
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return x[a] < x[b]; });
    std::vector<bool> redraw(static_cast<std::size_t>(n), false);
    for (std::size_t a = 0; a < order.size(); ++a)
      for (std::size_t b = a + 1; b < order.size(); ++b) {
        if (static_cast<double>(x[order[b]]) - x[order[a]] > 2.0 * kCutoff) break;
        if (in_band(distance(x, y, order[a], order[b]))) redraw[std::max(order[a], order[b])] = true;
      }
    for (std::int64_t k = 0; k < n; ++k)
      if (redraw[k]) {
        x[k] = static_cast<float>(rng.uniform(-side / 2, side / 2));
        y[k] = static_cast<float>(rng.uniform(-side / 2, side / 2));
        clean = false;
      }
  }
}

/// Body k placed AT the cutoff of body `anchor`: at a random angle, the float point (among the
/// 9×9 floats around the exact one) whose distance to the anchor is closest to 0.01 — within
/// ~1e-12 of it, far below FP32's own error of ~1e-7, so a correct FP32 kernel counts such a pair
/// or not as its rounding falls, about half of them each way.
inline void place_at_cutoff(Rng& rng, float* x, float* y, std::int64_t k, std::int64_t anchor) {
  place_near(rng, x, y, k, anchor, kCutoff);
  const float x0 = x[k], y0 = y[k];
  float best_x = x0, best_y = y0;
  double best = std::fabs(distance(x, y, anchor, k) - kCutoff);
  constexpr float inf = std::numeric_limits<float>::infinity();
  float cx = x0;
  for (int i = 0; i < 4; ++i) cx = std::nextafter(cx, -inf);
  for (int i = 0; i < 9; ++i, cx = std::nextafter(cx, inf)) {
    float cy = y0;
    for (int j = 0; j < 4; ++j) cy = std::nextafter(cy, -inf);
    for (int j = 0; j < 9; ++j, cy = std::nextafter(cy, inf)) {
      x[k] = cx;
      y[k] = cy;
      const double miss = std::fabs(distance(x, y, anchor, k) - kCutoff);
      if (miss < best) {
        best = miss;
        best_x = cx;
        best_y = cy;
      }
    }
  }
  x[k] = best_x;
  y[k] = best_y;
}

/// One row of positions for the acceleration steps: n bodies uniform in a square of mean spacing
/// kCloudSpacing, with pairs planted: every 16th body (k % 16 == 5) inside the cutoff of body
/// k − 1 (0.002–0.009 m: a kernel without the cutoff gets accelerations of 10^5–10^6), every 16th
/// (k % 16 == 11) just outside it (0.0105–0.03 m: a cutoff on the squared distance against 0.01
/// drops them). With `at_cutoff`, every 4th body (k % 4 == 1) is instead planted AT the cutoff of
/// body k − 1 (place_at_cutoff), and nothing is kept out of the band: that case exists to show
/// that the slack forgives those pairs.
inline void fill_cloud(Rng& rng, std::int64_t n, float* x, float* y, bool at_cutoff) {
  const double side = kCloudSpacing * std::sqrt(static_cast<double>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    if (k > 0 && at_cutoff && k % 4 == 1) {
      place_at_cutoff(rng, x, y, k, k - 1);
    } else if (k > 0 && k % 16 == 5) {
      place_near(rng, x, y, k, k - 1, rng.uniform(0.002, 0.009));
    } else if (k > 0 && k % 16 == 11) {
      place_near(rng, x, y, k, k - 1, rng.uniform(0.0105, 0.03));
    } else {
      x[k] = static_cast<float>(rng.uniform(-side / 2, side / 2));
      y[k] = static_cast<float>(rng.uniform(-side / 2, side / 2));
    }
  }
  if (!at_cutoff) keep_out_of_band(rng, n, x, y, side);
}

/// The accelerations of one row, and per body the slack: Σ |mG·(r_k − r_n)/d³| over the pairs
/// whose distance is in the band, per component. Whether a correct FP32 kernel counts such a
/// pair or not, its result differs from the gold's by at most that much; every other pair is
/// decided the same way by every correct kernel.
struct Accelerations {
  std::vector<double> ax, ay, slack_x, slack_y;
  double closest = std::numeric_limits<double>::infinity();  ///< the least |distance − cutoff| over all pairs
};

/// The accelerations (and slack) of the bodies at `x`, `y`, in double, under `physics`.
inline Accelerations accelerations(const std::vector<double>& x, const std::vector<double>& y,
                                   const Physics& physics = {}) {
  const std::size_t n = x.size();
  Accelerations a{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n),
                  std::vector<double>(n)};
  // Every ordered pair, as the lecture's Acceleration_CPU does (the bench times this loop for
  // the lecture's "Rate" column, so it does the same work as the lecture's CPU version).
  for (std::size_t i = 0; i < n; ++i) {
    double ax = 0.0, ay = 0.0, sx = 0.0, sy = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      if (k == i) continue;
      const double dx = x[k] - x[i], dy = y[k] - y[i];
      const double d = std::sqrt(dx * dx + dy * dy);
      const double f = physics.pull * kMassG / (d * d * d);
      a.closest = std::min(a.closest, std::fabs(d - physics.cutoff));
      if (in_band(d, physics.cutoff)) {
        sx += std::fabs(dx * f);
        sy += std::fabs(dy * f);
      }
      if (d > physics.cutoff) {
        ax += dx * f;
        ay += dy * f;
      }
    }
    a.ax[i] = ax;
    a.ay[i] = ay;
    a.slack_x[i] = sx;
    a.slack_y[i] = sy;
  }
  return a;
}

/// Inputs of the position step: positions in [-30, 30) m in every row (rows ≥ nt stand for what
/// is not computed yet: the kernel must write row nt and leave the others), velocities in
/// [-5, 5) m/s, accelerations in [-1000, 1000) m/s² (so that a·τ² = 1e-3 m is far above the
/// tolerance: the ½ and the order of the updates matter).
inline ArraySet position_inputs(Rng& rng, std::int64_t n, std::int64_t rows) {
  ArraySet in;
  in["X"] = uniform_array(rng, {rows, n}, -30.0, 30.0);
  in["Y"] = uniform_array(rng, {rows, n}, -30.0, 30.0);
  in["VX"] = uniform_array(rng, {n}, -5.0, 5.0);
  in["VY"] = uniform_array(rng, {n}, -5.0, 5.0);
  in["AX"] = uniform_array(rng, {n}, -1000.0, 1000.0);
  in["AY"] = uniform_array(rng, {n}, -1000.0, 1000.0);
  return in;
}

/// Position `r` after one step of velocity `v` and acceleration `a`, and `v` updated, in double
/// (the lecture: r + v·τ + a·τ²/2 with the old v, then v += a·τ).
inline double advance(double r, double& v, double a, const Physics& physics) {
  const double tau = kTau;
  if (physics.velocity_first) v += a * tau;
  const double next = r + v * tau + a * tau * tau * physics.half;
  if (!physics.velocity_first) v += a * tau;
  return next;
}

/// X, Y (row `step` updated, the others as given), VX, VY after one position update, in double.
inline ArraySet position_gold(const ArraySet& in, std::int64_t n, std::int64_t step, const Physics& physics = {}) {
  const std::int64_t from = physics.same_row ? step : step - 1;
  ArraySet out;
  for (const char* name : {"X", "Y", "VX", "VY"}) {
    const Array& source = in.at(name);
    Array copy = make_array(DType::f64, source.dims);
    for (std::int64_t i = 0; i < source.size(); ++i) copy.data<double>()[i] = source.value(i);
    out[name] = std::move(copy);
  }
  for (const char* axis : {"X", "Y"}) {
    const std::string v = std::string("V") + axis, a = std::string("A") + axis;
    double* r = out.at(axis).data<double>();
    double* vel = out.at(v).data<double>();
    for (std::int64_t i = 0; i < n; ++i) {
      r[step * n + i] = advance(r[from * n + i], vel[i], in.at(a).value(i), physics);
    }
  }
  return out;
}

/// Inputs of the simulation steps: row 0 of X, Y a jittered lattice (cells of kCell m, one body
/// within a quarter cell of each centre, so any two are ≥ 0.25 m apart), except that every 8th
/// body (k % 8 == 7) sits 0.003–0.007 m from body k − 1, inside the cutoff, with its velocity;
/// velocities in [-1, 1) m/s. Rows 1.. hold garbage the simulation must overwrite.
/// Why a lattice: at mG = 10 and τ = 1 ms, two bodies 0.03 m apart pull each other 0.1 m in 10
/// steps, so a random cloud is chaotic (FP32 and double trajectories part) and pairs cross the
/// cutoff mid-run. Here the closest free pair's tidal growth over 9 steps is e^0.3, and relative
/// motions (≤ 0.05 m) never bring a pair near 0.01 m.
inline ArraySet simulation_inputs(Rng& rng, std::int64_t n, std::int64_t rows) {
  const auto side = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double half = kCell * static_cast<double>(side) / 2.0;
  ArraySet in;
  in["X"] = uniform_array(rng, {rows, n}, -half, half);
  in["Y"] = uniform_array(rng, {rows, n}, -half, half);
  in["VX"] = make_array(DType::f32, {n});
  in["VY"] = make_array(DType::f32, {n});
  float* x = in.at("X").data<float>();
  float* y = in.at("Y").data<float>();
  float* vx = in.at("VX").data<float>();
  float* vy = in.at("VY").data<float>();
  for (std::int64_t k = 0; k < n; ++k) {
    if (k % 8 == 7) {
      place_near(rng, x, y, k, k - 1, rng.uniform(0.003, 0.007));
      vx[k] = vx[k - 1];
      vy[k] = vy[k - 1];
      continue;
    }
    const double cx = (static_cast<double>(k % side) + 0.5) * kCell - half;
    const double cy = (static_cast<double>(k / side) + 0.5) * kCell - half;
    x[k] = static_cast<float>(cx + rng.uniform(-kCell / 4, kCell / 4));
    y[k] = static_cast<float>(cy + rng.uniform(-kCell / 4, kCell / 4));
    vx[k] = static_cast<float>(rng.uniform(-1.0, 1.0));
    vy[k] = static_cast<float>(rng.uniform(-1.0, 1.0));
  }
  return in;
}

/// The whole simulation in double: rows 1..NT−1 of X, Y and the final VX, VY. Throws
/// std::logic_error when a pair comes within kSimulationMargin of the cutoff (the generator's
/// promise broken: a harness bug, never the student's).
inline ArraySet simulation_gold(const ArraySet& in, std::int64_t n, std::int64_t rows, const Physics& physics = {}) {
  std::vector<double> x(static_cast<std::size_t>(rows * n)), y(x.size()), vx(n), vy(n);
  // Every row as given: the gold overwrites rows 1.., but a kernel reading row nt reads them.
  for (std::int64_t i = 0; i < rows * n; ++i) {
    x[i] = in.at("X").value(i);
    y[i] = in.at("Y").value(i);
  }
  for (std::int64_t i = 0; i < n; ++i) {
    vx[i] = in.at("VX").value(i);
    vy[i] = in.at("VY").value(i);
  }
  for (std::int64_t step = 1; step < rows; ++step) {
    const std::int64_t read = physics.same_row ? step : step - 1;
    const auto from = x.begin() + read * n, from_y = y.begin() + read * n;
    const std::vector<double> px(from, from + n), py(from_y, from_y + n);
    const Accelerations a = accelerations(px, py, physics);
    if (a.closest < kSimulationMargin)
      throw std::logic_error("nbody: a pair came within " + std::to_string(a.closest) +
                             " m of the cutoff in the simulation's gold (step " + std::to_string(step) + ")");
    for (std::int64_t i = 0; i < n; ++i) {
      x[step * n + i] = advance(x[(step - 1) * n + i], vx[i], a.ax[i], physics);
      y[step * n + i] = advance(y[(step - 1) * n + i], vy[i], a.ay[i], physics);
    }
  }
  ArraySet out;
  out["X"] = to_f64(x);
  out["Y"] = to_f64(y);
  out.at("X").dims = out.at("Y").dims = {rows, n};
  out["VX"] = to_f64(vx);
  out["VY"] = to_f64(vy);
  return out;
}

}  // namespace cugrade::nbody
