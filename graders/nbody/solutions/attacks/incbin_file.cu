// Attack (files read at compile time): the assembler's .incbin directive copies any file into
// the object code, here /etc/passwd; at run time the submission looks at the copied bytes. No
// #include is involved, so an include policy never sees it; with it a submission can carry the
// course secret, a classmate's file or the reference's source out of the compile. Must fail:
// .incbin is refused in a submission (compile_error), and the compile sees nothing outside its
// folder anyway.
// How to read the outcome: the submission writes nothing (every output wrong) unless the attack
// worked, in which case it computes the lecture's results. So "passed" means the attack worked,
// and the expected outcome, wrong_answer, means it was stopped.
#include <cstring>

#include "interface.cuh"

__asm__(
    ".section .rodata\n"
    ".global attack_blob\n"
    "attack_blob:\n"
    ".incbin \"/etc/passwd\"\n"
    ".byte 0\n"
    ".previous\n");
extern "C" const char attack_blob[];

// Lecture 000's global-memory acceleration and position kernels (correct for every N).
__global__ void accelKernel(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  const int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id >= N) return;
  const int sh = (nt - 1) * N;
  float ax = 0.f, ay = 0.f;
  for (int j = 0; j < N; j++) {
    if (j == id) continue;
    const float xx = X[j + sh] - X[id + sh], yy = Y[j + sh] - Y[id + sh];
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

__global__ void positionKernel(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                               float tau, int nt, int N) {
  const int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id >= N) return;
  const int sh = (nt - 1) * N;
  X[id + nt * N] = X[id + sh] + VX[id] * tau + AX[id] * tau * tau * 0.5f;
  Y[id + nt * N] = Y[id + sh] + VY[id] * tau + AY[id] * tau * tau * 0.5f;
  VX[id] += AX[id] * tau;
  VY[id] += AY[id] * tau;
}

static int blocksFor(int N) { return (N + 255) / 256; }

// The entry points, honest when the attack worked (see the top of this file); otherwise they
// write nothing, so every output is wrong.
static void accel(bool worked, const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  if (worked) accelKernel<<<blocksFor(N), 256>>>(X, Y, AX, AY, nt, N);
}

static void position(bool worked, float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY,
                     float tau, int nt, int N) {
  if (worked) positionKernel<<<blocksFor(N), 256>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
}

static void simulate(bool worked, float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  if (!worked) return;
  float *AX, *AY;
  cudaMalloc((void**)&AX, sizeof(float) * N);
  cudaMalloc((void**)&AY, sizeof(float) * N);
  for (int nt = 1; nt < NT; nt++) {
    accelKernel<<<blocksFor(N), 256>>>(X, Y, AX, AY, nt, N);
    positionKernel<<<blocksFor(N), 256>>>(X, Y, VX, VY, AX, AY, tau, nt, N);
  }
  cudaFree(AX);
  cudaFree(AY);
}

// True when the compile could read the file.
static bool worked() { return std::strncmp(attack_blob, "root:", 5) == 0; }

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accel(worked(), X, Y, AX, AY, nt, N);
}
void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  accel(worked(), X, Y, AX, AY, nt, N);
}
void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau,
                    int nt, int N) {
  position(worked(), X, Y, VX, VY, AX, AY, tau, nt, N);
}
void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  simulate(worked(), X, Y, VX, VY, tau, NT, N);
}
void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  simulate(worked(), X, Y, VX, VY, tau, NT, N);
}
