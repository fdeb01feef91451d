// Reference for step "position" of assignment nbody: lecture 000's Position_GPU, one thread per
// body: row nt of X, Y from row nt-1 with the velocity and acceleration of the step, then the
// velocity update (after the position, which needs the old velocity). Bounds-checked.
// cugrade compiles this file inside namespace cugrade_reference with the CUDA headers already
// included, so it uses only the standard headers listed there and defines no macros.
#include "interface.cuh"

#include <cuda_runtime.h>

constexpr int POSITION_THREADS = 256;

__global__ void Position_GPU(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                             float tau, int nt, int Np) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id >= Np) return;
  int sh = (nt - 1) * Np;
  X[id + nt * Np] = X[id + sh] + VX[id] * tau + AX[id] * tau * tau * 0.5f;
  Y[id + nt * Np] = Y[id + sh] + VY[id] * tau + AY[id] * tau * tau * 0.5f;
  VX[id] += AX[id] * tau;
  VY[id] += AY[id] * tau;
}

void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                    float tau, int nt, int N) {
  const int blocks = (N + POSITION_THREADS - 1) / POSITION_THREADS;
  Position_GPU<<<blocks, POSITION_THREADS>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
}
