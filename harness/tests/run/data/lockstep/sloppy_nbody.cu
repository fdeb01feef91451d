// A cheat for the lock-step timing tests whose every output is a little wrong: nbody_position
// adds to each new position five times the step's tolerance, its sign by a hash of the body (as
// an approximation does, or arithmetic of lower precision). In a bucket of the digest errors of
// random sign cancel (n of them sum to about √n of one), so with hundreds of thousands of
// elements the buckets stay within their bounds; the digest's spots, elements compared one by
// one within the tolerance, catch it in every sample. The other steps are the lecture's.
#include "interface.cuh"

namespace {

/// The lecture's accelerations of row nt − 1.
__global__ void accelerations(const float* X, const float* Y, float* AX, float* AY, int nt, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  const int sh = (nt - 1) * n;
  float ax = 0.f, ay = 0.f;
  for (int j = 0; j < n; ++j) {
    if (j == id) continue;
    const float xx = X[sh + j] - X[sh + id], yy = Y[sh + j] - Y[sh + id];
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

/// Five times the position step's tolerance (atol 1e-6, rtol 5e-7), of a sign hashed from `id`.
__device__ float error_at(int id, float r) {
  const unsigned h = static_cast<unsigned>(id) * 2654435761u;
  return ((h >> 16) & 1 ? 5.f : -5.f) * (1e-6f + 5e-7f * fabsf(r));
}

__global__ void advance(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau, int nt,
                        int n, bool sloppy) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  const int from = (nt - 1) * n + id, to = nt * n + id;
  const float x = X[from] + VX[id] * tau + AX[id] * tau * tau * 0.5f;
  const float y = Y[from] + VY[id] * tau + AY[id] * tau * tau * 0.5f;
  X[to] = sloppy ? x + error_at(id, x) : x;
  Y[to] = sloppy ? y + error_at(id + n, y) : y;
  VX[id] += AX[id] * tau;
  VY[id] += AY[id] * tau;
}

int blocks(int n) { return (n + 255) / 256; }

}  // namespace

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accelerations<<<blocks(N), 256>>>(X, Y, AX, AY, nt, N);
}

void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accelerations<<<blocks(N), 256>>>(X, Y, AX, AY, nt, N);
}

void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau, int nt,
                    int N) {
  advance<<<blocks(N), 256>>>(X, Y, VX, VY, AX, AY, tau, nt, N, true);
}

void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  float *AX = nullptr, *AY = nullptr;
  cudaMalloc(&AX, N * sizeof(float));
  cudaMalloc(&AY, N * sizeof(float));
  for (int nt = 1; nt < NT; ++nt) {
    accelerations<<<blocks(N), 256>>>(X, Y, AX, AY, nt, N);
    advance<<<blocks(N), 256>>>(X, Y, VX, VY, AX, AY, tau, nt, N, false);
  }
  cudaFree(AX);
  cudaFree(AY);
}

void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  nbody_simulate_global(X, Y, VX, VY, tau, NT, N);
}
