// Attack (lower precision where it seems not to matter): lecture 000's kernels, but every pair
// farther apart than 25 cm (five mean spacings of the acceleration steps' clouds: most pairs of a
// cloud of 1000 bodies or more) is computed in half precision (__half: 11 bits, an error of about
// 1e-3 per term where FP32 has 6e-8), as a student might to use the GPU's faster half arithmetic.
// Near pairs, whose pulls are the largest, stay in FP32. Must fail: the step's tolerance is four
// times FP32's own error (graders/nbody/reference_error.yaml), and the far pairs' errors (7 to 28
// times the FP32 reference's) exceed it at N = 1000 and 2049, and the simulations' velocities from
// N = 100 on; before, with a tolerance about twenty times FP32's error, its accelerations passed.
#include <cuda_fp16.h>

#include "interface.cuh"

#define N_thread 256

/// The pull of a body at (xx, yy) from this one, added to (ax, ay): in FP32 within 25 cm, else in half.
__device__ void add_pull(float xx, float yy, float& ax, float& ay) {
  const float rr = sqrtf(xx * xx + yy * yy);
  if (rr <= 0.01f) return;
  if (rr <= 0.25f) {
    const float f = 10.f / (rr * rr * rr);
    ax += xx * f;
    ay += yy * f;
    return;
  }
  const __half hx = __float2half(xx), hy = __float2half(yy);
  const __half r = hsqrt(hx * hx + hy * hy);
  const __half f = __float2half(10.f) / (r * r * r);
  ax += __half2float(hx * f);
  ay += __half2float(hy * f);
}

__global__ void Acceleration_GPU(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id >= N) return;
  float ax = 0.f; float ay = 0.f; float xx, yy; int sh = (nt - 1) * N;
  for (int j = 0; j < N; j++) {
    if (j != id) {
      xx = X[j + sh] - X[id + sh]; yy = Y[j + sh] - Y[id + sh];
      add_pull(xx, yy, ax, ay);
    }
  }
  AX[id] = ax; AY[id] = ay;
}

__global__ void Acceleration_Shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N,
                                    int N_block) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  float ax = 0.f; float ay = 0.f; float xx, yy; int sh = (nt - 1) * N;
  float xxx = 0.f, yyy = 0.f;
  if (id < N) { xxx = X[id + sh]; yyy = Y[id + sh]; }
  __shared__ float Xs[256]; __shared__ float Ys[256];
  for (int i = 0; i < N_block; i++) {
    if (threadIdx.x + i * blockDim.x < N) {
      Xs[threadIdx.x] = X[threadIdx.x + i * blockDim.x + sh];
      Ys[threadIdx.x] = Y[threadIdx.x + i * blockDim.x + sh];
    }
    __syncthreads();
    for (int j = 0; j < blockDim.x && j + i * blockDim.x < N; j++) {
      if ((j + i * blockDim.x) != id) {
        xx = Xs[j] - xxx; yy = Ys[j] - yyy;
        add_pull(xx, yy, ax, ay);
      }
    }
    __syncthreads();
  }
  if (id < N) { AX[id] = ax; AY[id] = ay; }
}

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

static int blocks_for(int N) { return (N + N_thread - 1) / N_thread; }

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  Acceleration_GPU<<<blocks_for(N), N_thread>>>(X, Y, AX, AY, nt, N);
}

void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  int N_block = blocks_for(N);
  Acceleration_Shared<<<N_block, N_thread>>>(X, Y, AX, AY, nt, N, N_block);
}

void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                    float tau, int nt, int N) {
  Position_GPU<<<blocks_for(N), N_thread>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
}

void nbody_simulate_global(float* dX, float* dY, float* dVX, float* dVY, float tau, int NT, int N) {
  float *dAX, *dAY;
  cudaMalloc((void**)&dAX, sizeof(float) * N); cudaMalloc((void**)&dAY, sizeof(float) * N);
  int N_block = blocks_for(N);
  for (int j = 1; j < NT; j++) {
    Acceleration_GPU<<<N_block, N_thread>>>(dX, dY, dAX, dAY, j, N);
    Position_GPU<<<N_block, N_thread>>>(dX, dY, dVX, dVY, dAX, dAY, tau, j, N);
  }
  cudaFree(dAX); cudaFree(dAY);
}

void nbody_simulate_shared(float* dX, float* dY, float* dVX, float* dVY, float tau, int NT, int N) {
  float *dAX, *dAY;
  cudaMalloc((void**)&dAX, sizeof(float) * N); cudaMalloc((void**)&dAY, sizeof(float) * N);
  int N_block = blocks_for(N);
  for (int j = 1; j < NT; j++) {
    Acceleration_Shared<<<N_block, N_thread>>>(dX, dY, dAX, dAY, j, N, N_block);
    Position_GPU<<<N_block, N_thread>>>(dX, dY, dVX, dVY, dAX, dAY, tau, j, N);
  }
  cudaFree(dAX); cudaFree(dAY);
}
