// Reference for step "accel_global" of assignment nbody: lecture 000's Acceleration_GPU, one
// thread per body summing over every other body straight from global memory, with a bounds check
// so that N need not be a multiple of the 256-thread block (the lecture's N = 10240 is).
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

// The lecture's N_thread.
constexpr int ACCEL_GLOBAL_THREADS = 256;

__global__ void Acceleration_GPU(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id >= N) return;  // the last block may be partial
  float ax = 0.f;
  float ay = 0.f;
  float xx, yy, rr;
  int sh = (nt - 1) * N;  // the positions of the previous step
  for (int j = 0; j < N; j++) {  // loop over the bodies
    if (j != id) {               // no self-interaction
      xx = X[j + sh] - X[id + sh];
      yy = Y[j + sh] - Y[id + sh];
      rr = sqrtf(xx * xx + yy * yy);
      if (rr > 0.01f) {  // closer than 0.01 m: no force
        rr = 10.f / (rr * rr * rr);  // mG / r^3
        ax += xx * rr;
        ay += yy * rr;
      }
    }
  }
  AX[id] = ax;
  AY[id] = ay;
}

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  const int blocks = (N + ACCEL_GLOBAL_THREADS - 1) / ACCEL_GLOBAL_THREADS;  // rounded up
  Acceleration_GPU<<<blocks, ACCEL_GLOBAL_THREADS>>>(X, Y, AX, AY, nt, N);
}
