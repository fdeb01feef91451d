// Attack (resources; processes outlive their check): correct kernels, plus, in the first call, a
// double-forked setsid() daemon that keeps the runner's stdout and stderr open for 60 s. The
// runner ends normally, but its output pipes stay open: a grader that reads them to the end
// waits for the daemon, and a group kill misses it (setsid). Must fail to stall: the runner's
// whole PID namespace dies with it (closing the pipes), so the check ends within
// seconds_at_most with its real grade (passed). The forks are raw system calls, which no symbol
// policy sees: this is the sandbox's to stop.
#include <csignal>

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

// A system call made directly (inline assembly on x86-64), naming no C library function, so no
// symbol policy can see it: only the sandbox stands in its way.
[[maybe_unused]] static long rawSyscall(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
#if defined(__x86_64__)
  long result;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                   : "rcx", "r11", "memory");
  return result;
#else
  return syscall(number, a, b, c, d);
#endif
}

// fork(2) by its system call (a child of a threaded process must then make system calls only).
[[maybe_unused]] static long rawFork() {
#if defined(SYS_fork)
  return rawSyscall(SYS_fork);
#else
  return rawSyscall(SYS_clone, SIGCHLD, 0, 0, 0);
#endif
}

[[maybe_unused]] static void rawSleep(long seconds, long nanoseconds) {
  struct timespec pause = {seconds, nanoseconds};
  rawSyscall(SYS_nanosleep, reinterpret_cast<long>(&pause), 0);
}

static void leaveDaemon() {
  const long child = rawFork();
  if (child != 0) {
    if (child > 0) rawSyscall(SYS_wait4, child, 0, 0, 0);
    return;
  }
  rawSyscall(SYS_setsid);
  if (rawFork() != 0) rawSyscall(SYS_exit_group, 0);
  rawSleep(60, 0);  // holding descriptors 1 and 2, inherited from the runner
  rawSyscall(SYS_exit_group, 0);
}

static bool worked() {
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    leaveDaemon();
  }
  return true;
}

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
