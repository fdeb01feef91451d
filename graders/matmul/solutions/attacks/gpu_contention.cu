// Attack (timing by interference; GPU): the student's runner and the reference runner take turns
// on the same GPU. In its first call the submission starts a second process of its own step (a
// raw fork and execve of its runner binary, so no symbol policy sees it); a constructor turns
// that process into a GPU hog that keeps the GPU busy (1 GiB memsets) whenever a flag file in
// the work folder says "run". Each student call sets the flag to "pause", does its work, waits
// for it, and sets it back to "run" before returning: the hog runs only while the student's
// runner is idle, that is while the reference is timed, and slows the reference down (on an
// H100 by 26-31 % for the naive and padded steps, before and after sealing). The submission's
// kernels are the naive one three times over: honestly far too slow for any performance point,
// which is all this entry checks. Must fail: the student's step must not run while the reference
// takes its turn (its processes stopped, or the GPU not shared). The hog ends within 120 s, or
// when its parent does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <csignal>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "interface.cuh"

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

static const char* kHogFlag = "--attack-gpu-hog";
static const char* kFlagFile = "attack-gpu-hog.flag";

static char flagState() {
  char state = 'p';
  const int fd = open(kFlagFile, O_RDONLY);
  if (fd >= 0) {
    if (read(fd, &state, 1) != 1) state = 'p';
    close(fd);
  }
  return state;
}

static void setFlag(char state) {
  const int fd = open(kFlagFile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    if (write(fd, &state, 1) != 1) state = 0;
    close(fd);
  }
}

// In the hog process, before the runner's main: spin while the flag says "run".
__attribute__((constructor)) static void maybeHog() {
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  char argv[256] = {0};
  if (fd < 0) return;
  const ssize_t size = read(fd, argv, sizeof argv - 1);
  close(fd);
  const char* second = size > 0 ? argv + std::strlen(argv) + 1 : nullptr;
  if (second == nullptr || second >= argv + size || std::strcmp(second, kHogFlag) != 0) return;
  // The CUDA runtime's own memset kernels: this constructor runs before this file's kernels are
  // registered, so it cannot launch them.
  const pid_t parent = getppid();
  const size_t bytes = size_t{1} << 30;
  void* scratch = nullptr;
  if (cudaMalloc(&scratch, bytes) != cudaSuccess) _exit(0);
  const time_t end = time(nullptr) + 120;
  bool was_running = false;
  while (time(nullptr) < end && getppid() == parent) {
    const bool run = flagState() == 'r';
    if (run && !was_running) usleep(1000);  // let the student's own digest and reply go first
    was_running = run;
    if (run) {
      cudaMemsetAsync(scratch, 0x5A, bytes);
      cudaDeviceSynchronize();
    } else {
      usleep(20);
    }
  }
  _exit(0);
}

extern char** environ;

// Starts the hog: this very runner binary, again, with the hog flag.
static void startHog() {
  setFlag('p');
  const long child = rawFork();
  if (child != 0) return;
  const char* argv[] = {"runner", kHogFlag, nullptr};
  rawSyscall(SYS_execve, reinterpret_cast<long>("/proc/self/exe"), reinterpret_cast<long>(argv),
             reinterpret_cast<long>(environ));
  rawSyscall(SYS_exit_group, 1);
}

__global__ void naiveKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

static void entry(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool started = false;
  if (!started) {
    started = true;
    startHog();
  }
  setFlag('p');
  usleep(500);  // the hog's last kernel ends
  const dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  for (int pass = 0; pass < 3; ++pass) naiveKernel<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  setFlag('r');
}

void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_padded(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K) { entry(A, B, C, M, N, K); }
