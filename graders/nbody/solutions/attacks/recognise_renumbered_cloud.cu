// Attack (recognised samples; GPU): the timed samples of N-body were the first one's bodies
// renumbered and mirrored through the origin, whose forces and trajectories are the first one's
// renumbered and negated. So: compute honestly, three times over (far too slow for any
// performance point), and keep what each call was given and answered; on a later call of as many
// bodies, look a few of its bodies up among the kept ones and, where one is there (renumbered,
// perhaps mirrored), answer the kept outputs renumbered and negated at the cost of a copy. Every
// correctness case is new and gets the honest answer; the timed samples look hundreds of times
// faster than the reference. Must fail: every sample also moves each body that has room by a keyed
// amount (Grader::movable_bodies), so the kept outputs are not the sample's, the digests refuse
// them, and no performance point is earned. Also the fixture of the lock-step test that shows the
// moves are what catches it (harness/tests/run/lockstep.cmake).
#include "interface.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace {

constexpr int kThreads = 256;

/// The lecture's accelerations of the n bodies of one row.
__global__ void accelerations(const float* X, const float* Y, float* AX, float* AY, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  float ax = 0.f, ay = 0.f;
  for (int j = 0; j < n; ++j) {
    if (j == id) continue;
    const float xx = X[j] - X[id], yy = Y[j] - Y[id];
    float rr = sqrtf(xx * xx + yy * yy);
    if (rr > 0.01f) {
      rr = 10.f / (rr * rr * rr);
      ax += xx * rr;
      ay += yy * rr;
    }
  }
  AX[id] = ax;
  AY[id] = ay;
}

/// Row `nt` from row nt − 1, and the velocities (the lecture's update).
__global__ void advance(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau,
                        int nt, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  const int from = (nt - 1) * n + id, to = nt * n + id;
  X[to] = X[from] + VX[id] * tau + AX[id] * tau * tau * 0.5f;
  Y[to] = Y[from] + VY[id] * tau + AY[id] * tau * tau * 0.5f;
  VX[id] += AX[id] * tau;
  VY[id] += AY[id] * tau;
}

int blocks(int n) { return (n + kThreads - 1) / kThreads; }

/// Three honest passes of the accelerations of one row (the slow path).
void slow_accelerations(const float* X, const float* Y, float* AX, float* AY, int n) {
  for (int pass = 0; pass < 3; ++pass) accelerations<<<blocks(n), kThreads>>>(X, Y, AX, AY, n);
}

std::vector<float> to_host(const float* device, std::size_t count) {
  std::vector<float> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost);
  return host;
}

std::uint64_t key_of(float x, float y) {
  std::uint32_t bx = 0, by = 0;
  std::memcpy(&bx, &x, sizeof bx);
  std::memcpy(&by, &y, sizeof by);
  return (static_cast<std::uint64_t>(bx) << 32) | by;
}

/// One entry's last honest call: its bodies (one row), its outputs (device pointers' sizes in
/// rows of n), and the bodies sorted by their coordinates' bits for the look-up.
struct Kept {
  int n = -1, rows = -1;
  std::vector<std::pair<std::uint64_t, int>> bodies;
  std::vector<std::vector<float>> outputs;

  /// The shift and sign that make the new row `x`, `y` the kept one renumbered (and mirrored):
  /// false when none of its first bodies is a kept one.
  bool recognise(const std::vector<float>& x, const std::vector<float>& y, int& shift, bool& negate) const {
    for (int i = 0; i < std::min(n, 64); ++i)
      for (const bool mirrored : {false, true}) {
        const std::uint64_t key = mirrored ? key_of(-x[i], -y[i]) : key_of(x[i], y[i]);
        const auto it = std::lower_bound(bodies.begin(), bodies.end(), std::make_pair(key, -1));
        if (it != bodies.end() && it->first == key) {
          shift = ((i - it->second) % n + n) % n;
          negate = mirrored;
          return true;
        }
      }
    return false;
  }

  void keep(const std::vector<float>& x, const std::vector<float>& y, int count, int row_count) {
    n = count;
    rows = row_count;
    bodies.clear();
    for (int j = 0; j < n; ++j) bodies.emplace_back(key_of(x[j], y[j]), j);
    std::sort(bodies.begin(), bodies.end());
  }

  /// Writes kept output `which` (rows of n) renumbered by `shift`, negated or not, to `device`.
  void answer(int which, float* device, int shift, bool negate) const {
    const std::vector<float>& kept = outputs[which];
    std::vector<float> out(kept.size());
    for (std::size_t r = 0; r < kept.size() / n; ++r)
      for (int j = 0; j < n; ++j) out[r * n + (j + shift) % n] = negate ? -kept[r * n + j] : kept[r * n + j];
    cudaMemcpy(device, out.data(), out.size() * sizeof(float), cudaMemcpyHostToDevice);
  }
};

Kept kept_accelerations, kept_simulation;

void accel(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  const float* x = X + static_cast<std::size_t>(nt - 1) * N;
  const float* y = Y + static_cast<std::size_t>(nt - 1) * N;
  const std::vector<float> hx = to_host(x, N), hy = to_host(y, N);
  int shift = 0;
  bool negate = false;
  Kept& k = kept_accelerations;
  if (k.n == N && k.recognise(hx, hy, shift, negate)) {
    k.answer(0, AX, shift, negate);
    k.answer(1, AY, shift, negate);
    return;
  }
  slow_accelerations(x, y, AX, AY, N);
  k.keep(hx, hy, N, 1);
  k.outputs = {to_host(AX, N), to_host(AY, N)};
}

void simulate(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  const std::vector<float> hx = to_host(X, N), hy = to_host(Y, N);
  int shift = 0;
  bool negate = false;
  Kept& k = kept_simulation;
  if (k.n == N && k.rows == NT && k.recognise(hx, hy, shift, negate)) {
    k.answer(0, X, shift, negate);
    k.answer(1, Y, shift, negate);
    k.answer(2, VX, shift, negate);
    k.answer(3, VY, shift, negate);
    return;
  }
  float *AX = nullptr, *AY = nullptr;
  cudaMalloc(&AX, N * sizeof(float));
  cudaMalloc(&AY, N * sizeof(float));
  for (int nt = 1; nt < NT; ++nt) {
    slow_accelerations(X + static_cast<std::size_t>(nt - 1) * N, Y + static_cast<std::size_t>(nt - 1) * N, AX, AY, N);
    advance<<<blocks(N), kThreads>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
  }
  cudaFree(AX);
  cudaFree(AY);
  const std::size_t all = static_cast<std::size_t>(NT) * N;
  k.keep(hx, hy, N, NT);
  k.outputs = {to_host(X, all), to_host(Y, all), to_host(VX, N), to_host(VY, N)};
}

}  // namespace

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accel(X, Y, AX, AY, nt, N);
}

void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accel(X, Y, AX, AY, nt, N);
}

void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau, int nt,
                    int N) {
  advance<<<blocks(N), kThreads>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
}

void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  simulate(X, Y, VX, VY, tau, NT, N);
}

void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  simulate(X, Y, VX, VY, tau, NT, N);
}
