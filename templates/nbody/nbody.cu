// Assignment nbody: the 2D N-body simulation of lecture 000 (shared memory). Read ASSIGNMENT.md first.
// Fill in every TODO; `cugrade check nbody --submission nbody.cu` tells you how far you are.
// All pointers are device pointers; launch and return (free what you allocate; no copies to
// the host). X[nt*N + i] is the x of body i at time step nt.
#include <cuda_runtime.h>

#include "interface.cuh"

#define N_THREAD 256  // threads per block, and bodies per shared-memory tile

// Step "accel_global": one thread per body, every other body read from global memory.
__global__ void Acceleration_GPU(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  // TODO: id = threadIdx.x + blockIdx.x * blockDim.x; return if id >= N;
  //       sh = (nt - 1) * N; for every j != id: xx = X[j + sh] - X[id + sh] (yy likewise),
  //       rr = sqrtf(xx*xx + yy*yy); if (rr > 0.01f) { rr = 10.f / (rr*rr*rr); ax += xx*rr; ... }
  //       then AX[id] = ax; AY[id] = ay;
}

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  // TODO: launch Acceleration_GPU with ceil(N / 256.0) blocks of N_THREAD threads.
}

// Step "accel_shared": tiles of N_THREAD bodies staged in shared memory.
__global__ void Acceleration_Shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N,
                                    int N_block) {
  __shared__ float Xs[N_THREAD];
  __shared__ float Ys[N_THREAD];
  // TODO: this thread's body (if id < N); for each tile i < N_block: copy body
  //       i*N_THREAD + threadIdx.x into Xs, Ys (only if it is < N), __syncthreads(), add the
  //       tile's bodies (stop at N; skip your own), __syncthreads(). Write AX, AY if id < N.
}

void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  // TODO: N_block = ceil(N / 256.0) tiles = blocks of N_THREAD threads.
}

// Step "position": row nt from row nt-1, then the velocities.
__global__ void Position_GPU(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                             float tau, int nt, int N) {
  // TODO: X[id + nt*N] = X[id + sh] + VX[id]*tau + AX[id]*tau*tau*0.5f (Y likewise),
  //       then VX[id] += AX[id]*tau (VY likewise). Bounds check.
}

void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                    float tau, int nt, int N) {
  // TODO: launch Position_GPU.
}

// Steps "simulate_global" and "simulate_shared": the lecture's time loop.
void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  // TODO: cudaMalloc AX, AY (N floats each); for nt = 1 .. NT-1: nbody_accel_global(...) then
  //       nbody_position(...); cudaFree AX, AY.
}

void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  // TODO: as nbody_simulate_global, with nbody_accel_shared.
}
