// Attack (writes outside the work folder, without the C library): create (and at once remove) a
// file in the folder this submission was compiled from (__FILE__: the course tree in a
// self-test, the class's folder in a batch), through raw system calls in inline assembly. No
// C library function is named, so an allowlist of imported symbols cannot see it: only the
// sandbox can stop it. Must fail: nothing outside the runner's own work folder is writable.
// How to read the outcome: the submission's own output is wrong (all zeros) unless the attack
// worked, in which case it computes the true result. So "passed" means the attack worked, and
// the expected outcome, wrong_answer, means it was stopped.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "interface.cuh"

// One thread per element: out = in (transposed when `transpose`), correct for every size.
__global__ void naiveKernel(const float* in, float* out, int rows, int cols, bool transpose) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  out[transpose ? col * rows + row : row * cols + col] = in[row * cols + col];
}

// The true result when the attack worked (see the top of this file); otherwise zeros.
static void graded(bool attack_worked, const float* in, float* out, int rows, int cols, bool transpose) {
  if (!attack_worked) {
    cudaMemsetAsync(out, 0, sizeof(float) * rows * cols);
    return;
  }
  naiveKernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols, transpose);
}

static long raw(long number, long a, long b, long c, long d) {
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

// True when a file could be created next to the source (outside the runner's work folder).
static bool writesNextToSource() {
  std::string folder = __FILE__;
  folder = folder.substr(0, folder.rfind('/') == std::string::npos ? 0 : folder.rfind('/'));
  if (folder.empty()) return false;
  char here[PATH_MAX];
  if (getcwd(here, sizeof here) != nullptr && folder.rfind(here, 0) == 0) return false;  // its own folder
  const std::string probe = folder + "/.cugrade-attack-probe-" + std::to_string(getpid());
  const long fd =
      raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>(probe.c_str()), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) return false;
  raw(SYS_close, fd, 0, 0, 0);
  raw(SYS_unlinkat, AT_FDCWD, reinterpret_cast<long>(probe.c_str()), 0, 0);
  std::fprintf(stderr, "attack: could write into %s\n", folder.c_str());
  return true;
}

static void entry(const float* in, float* out, int rows, int cols, bool transpose) {
  static const bool escaped = writesNextToSource();
  graded(escaped, in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, false); }
void transpose_naive(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true);
}
void transpose_padded(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
