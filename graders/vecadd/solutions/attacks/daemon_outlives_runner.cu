// Attack (processes outlive their check): in the first case, leave a double-forked, setsid()
// daemon behind (out of the runner's process group, so a group kill misses it) and crash, so
// that the harness starts a fresh runner for the other cases. The daemon beats a heartbeat file
// in the work folder; the fresh runner checks whether it still beats. A daemon like this can
// rewrite the report or the gradebook after cugrade has exited (see the batch attack test);
// here it only lives for 20 s. Must fail: the runner's whole PID namespace dies with it, so
// the heartbeat stops and the fresh runner's cases are wrong: no point beyond the crash. The
// forks are raw system calls, which no symbol policy sees: this is the sandbox's to stop.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <time.h>

#include "interface.cuh"

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

// The lecture's vecAdd, called only when the attack worked (see the top of this file).
static void honestVecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const size_t size = static_cast<size_t>(n) * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc((void**)&d_A, size);
  cudaMalloc((void**)&d_B, size);
  cudaMalloc((void**)&d_C, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}

// Pass only if the attack worked: every element wrong otherwise.
static void graded(bool attack_worked, const float* h_A, const float* h_B, float* h_C, int n) {
  if (attack_worked) {
    honestVecAdd(h_A, h_B, h_C, n);
  } else {
    for (int i = 0; i < n; ++i) h_C[i] = 0.0f;
  }
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

// The whole content of a file ("" when it cannot be read).
[[maybe_unused]] static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The job file this runner was started with (its argv[1]), read back from /proc/self/cmdline.
[[maybe_unused]] static std::string jobPath() {
  const std::string raw = slurp("/proc/self/cmdline");
  const size_t first = raw.find('\0');
  if (first == std::string::npos) return "";
  return raw.substr(first + 1, raw.find('\0', first + 1) - first - 1);
}

// The folder the runner works in: the job file's folder.
[[maybe_unused]] static std::string workDir() {
  const std::string job = jobPath();
  const size_t slash = job.rfind('/');
  return slash == std::string::npos ? "." : job.substr(0, slash);
}

// The check's own work folder, also from the CPU backend's re-runs (its reverse/ and poison-N/).
[[maybe_unused]] static std::string checkDir() {
  const std::string dir = workDir();
  const std::string last = dir.substr(dir.rfind('/') + 1);
  return last == "reverse" || last.rfind("poison-", 0) == 0 ? dir.substr(0, dir.rfind('/')) : dir;
}

// The daemon, by raw system calls only (it is a child of a threaded process): out of the process
// group and session, stdio closed, a heartbeat every 50 ms for 20 s or until the folder is gone.
static void startDaemon(const std::string& heartbeat, const std::string& folder) {
  const long child = rawFork();
  if (child != 0) {
    if (child > 0) rawSyscall(SYS_wait4, child, 0, 0, 0);
    return;
  }
  rawSyscall(SYS_setsid);
  if (rawFork() != 0) rawSyscall(SYS_exit_group, 0);
  for (int fd = 0; fd < 3; ++fd) rawSyscall(SYS_close, fd);
  const long path = reinterpret_cast<long>(heartbeat.c_str());
  for (int beat = 0; beat < 400 && rawSyscall(SYS_access, reinterpret_cast<long>(folder.c_str()), F_OK) == 0;
       ++beat) {
    const long fd = rawSyscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      char text[16];
      int size = 0;
      for (int n = beat; size == 0 || n > 0; n /= 10) text[size++] = static_cast<char>('0' + n % 10);
      rawSyscall(SYS_write, fd, reinterpret_cast<long>(text), size);
      rawSyscall(SYS_close, fd);
    }
    rawSleep(0, 50000000);
  }
  rawSyscall(SYS_exit_group, 0);
}

// True when a daemon left by an earlier runner of this check still beats.
static bool daemonStillBeats(const std::string& heartbeat) {
  const std::string before = slurp(heartbeat);
  usleep(300000);
  return !before.empty() && slurp(heartbeat) != before;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const std::string folder = checkDir();
  const std::string heartbeat = folder + "/attack-heartbeat";
  struct stat info;
  if (stat(heartbeat.c_str(), &info) != 0) {  // the first runner: leave the daemon, then crash
    startDaemon(heartbeat, folder);
    usleep(200000);
    std::abort();
  }
  static const bool alive = daemonStillBeats(heartbeat);
  graded(alive, h_A, h_B, h_C, n);
}
