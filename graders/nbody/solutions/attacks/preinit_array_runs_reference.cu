// Attack (the job file is writable): a function pointer in .preinit_array, which the dynamic
// loader calls before any constructor, even of the shared libraries, with main's arguments. It
// rewrites the job file (argv[1]) so that every case calls the instructor's reference instead of
// the student ("reference": true). The submission's own functions write nothing. Must fail: the
// student's runner has no reference to call; it refuses those cases, the reference runner runs
// them without trouble, so the refusal is the submission's failure (protocol_error): no points.
#include <cstdio>
#include <string>

#include "interface.cuh"

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

static bool worked() { return false; }

// C stdio only: this runs before the C++ library is set up.
static void callReferenceEverywhere(int argc, char** argv, char**) {
  if (argc != 2) return;
  static char job[1 << 20];
  FILE* in = std::fopen(argv[1], "rb");
  if (in == nullptr) return;
  const size_t size = std::fread(job, 1, sizeof job, in);
  std::fclose(in);
  std::string text(job, size);
  const std::string no = "\"reference\": false", yes = "\"reference\": true";
  for (size_t at = text.find(no); at != std::string::npos; at = text.find(no, at))
    text.replace(at, no.size(), yes);
  if (FILE* out = std::fopen(argv[1], "wb")) {
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
  }
}

__attribute__((section(".preinit_array"), used)) static void (*earliest)(int, char**,
                                                                         char**) = callReferenceEverywhere;

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
