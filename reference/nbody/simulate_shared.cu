// Reference for step "simulate_shared" of assignment nbody: lecture 000's time loop with the
// shared-memory acceleration (Acceleration_Shared, accel_shared.cu) and Position_GPU
// (position.cu), the accelerations in device scratch. Only the time loop is timed, not the
// lecture's copies to and from the host.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  float* dAX = nullptr;
  float* dAY = nullptr;
  cudaMalloc(&dAX, sizeof(float) * N);
  cudaMalloc(&dAY, sizeof(float) * N);
  for (int j = 1; j < NT; j++) {
    nbody_accel_shared(X, Y, dAX, dAY, j, N);
    nbody_position(X, Y, VX, VY, dAX, dAY, tau, j, N);
  }
  cudaFree(dAX);
  cudaFree(dAY);
}
