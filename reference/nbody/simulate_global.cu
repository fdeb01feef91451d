// Reference for step "simulate_global" of assignment nbody: the GPU part of lecture 000's main
// (parts 5-7): for j = 1 .. NT-1, Acceleration_GPU then Position_GPU, through this assignment's
// own entry points (accel_global.cu, position.cu), with the accelerations in device scratch.
// The lecture's GPU time also includes the copies to and from the host; here the data is on the
// device already, so only the time loop is timed.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  float* dAX = nullptr;
  float* dAY = nullptr;
  cudaMalloc(&dAX, sizeof(float) * N);
  cudaMalloc(&dAY, sizeof(float) * N);
  for (int j = 1; j < NT; j++) {
    nbody_accel_global(X, Y, dAX, dAY, j, N);         // the accelerations from row j-1
    nbody_position(X, Y, VX, VY, dAX, dAY, tau, j, N);  // row j, and the velocities
  }
  cudaFree(dAX);
  cudaFree(dAY);
}
