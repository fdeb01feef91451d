// Attack (patching the timer; GPU): rewrite, in memory, the first instructions of two functions
// the runner times with: cudaEventElapsedTime (the CUDA events around each sample) and the C
// library's clock_gettime (its host wall clock), so that each jumps to code of ours. The event
// time of a student sample is then reported as 0.9 times the reference's last sample, and the
// wall clock is set back during each student call by the difference: ratio 1.1 on every step,
// consistent on both clocks, never faster than the memory allows. Nothing is imported that a
// symbol policy could refuse: the pages are made writable by a raw mprotect system call, and
// the real elapsed time comes from the original function, restored for the call and patched
// again after. The kernels are the naive transpose three times over: honestly far too slow for
// any performance point. Must fail: the time graded is the harness's, taken in another process,
// so no performance points.
#include <cstdint>
#include <cstring>

#include <sys/mman.h>
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

__global__ void naiveKernel(const float* in, float* out, int rows, int cols, bool transpose) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  out[transpose ? col * rows + row : row * cols + col] = in[row * cols + col];
}

static bool student_sample_pending = false;
static float last_reference_ms = 0.0f, last_student_ms = 0.0f;
static long long warp_ns = 0;  // how far the monotonic clock has been set back

// One patched function: where it is, and its first bytes as they were and as patched.
struct Patch {
  unsigned char* at = nullptr;
  unsigned char original[12];
  unsigned char jump[12];
};
static Patch elapsed_patch, clock_patch;

static void writeCode(unsigned char* at, const unsigned char* code) {
  const uintptr_t page = 4096;
  const long first = static_cast<long>(reinterpret_cast<uintptr_t>(at) & ~(page - 1));
  rawSyscall(SYS_mprotect, first, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC);
  std::memcpy(at, code, 12);
  rawSyscall(SYS_mprotect, first, 2 * page, PROT_READ | PROT_EXEC);
}

// Makes `target` start with "movabs rax, replacement; jmp rax" (x86-64 only).
static void install(Patch& patch, void* target, void* replacement) {
#if defined(__x86_64__)
  patch.at = static_cast<unsigned char*>(target);
  std::memcpy(patch.original, patch.at, 12);
  const unsigned char code[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  std::memcpy(patch.jump, code, 12);
  std::memcpy(patch.jump + 2, &replacement, sizeof replacement);
  writeCode(patch.at, patch.jump);
#endif
}

static cudaError_t fakeElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  writeCode(elapsed_patch.at, elapsed_patch.original);  // the real function, for one call
  const cudaError_t result = cudaEventElapsedTime(ms, start, stop);
  writeCode(elapsed_patch.at, elapsed_patch.jump);
  if (result != cudaSuccess) return result;
  if (student_sample_pending) {
    student_sample_pending = false;
    last_student_ms = *ms;
    if (last_reference_ms > 0.0f) *ms = 0.9f * last_reference_ms;
  } else {
    last_reference_ms = *ms;
  }
  return cudaSuccess;
}

static int fakeClockGettime(clockid_t clock, struct timespec* now) {
  const long result = rawSyscall(SYS_clock_gettime, clock, reinterpret_cast<long>(now));
  if (result == 0 && clock == CLOCK_MONOTONIC) {
    const long long ns = now->tv_sec * 1000000000LL + now->tv_nsec - warp_ns;
    now->tv_sec = ns / 1000000000LL;
    now->tv_nsec = ns % 1000000000LL;
  }
  return result == 0 ? 0 : -1;
}

static void patchTimers() {
  cudaError_t (*elapsed)(float*, cudaEvent_t, cudaEvent_t) = &cudaEventElapsedTime;
  int (*clock)(clockid_t, struct timespec*) = &clock_gettime;
  install(elapsed_patch, reinterpret_cast<void*>(elapsed), reinterpret_cast<void*>(&fakeElapsedTime));
  install(clock_patch, reinterpret_cast<void*>(clock), reinterpret_cast<void*>(&fakeClockGettime));
}

static void entry(const float* in, float* out, int rows, int cols, bool transpose) {
  static bool patched = false;
  if (!patched) {
    patched = true;
    patchTimers();
  }
  // Set the wall clock back by what the forged event time hides of the last student sample.
  if (last_reference_ms > 0.0f && last_student_ms > 0.9f * last_reference_ms)
    warp_ns += static_cast<long long>((last_student_ms - 0.9f * last_reference_ms) * 1e6f);
  student_sample_pending = true;
  const dim3 grid((cols + 31) / 32, (rows + 7) / 8), block(32, 8);
  for (int pass = 0; pass < 3; ++pass) naiveKernel<<<grid, block>>>(in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, false); }
void transpose_naive(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true);
}
void transpose_padded(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
