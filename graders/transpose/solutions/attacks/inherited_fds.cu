// Attack (the runner is not contained): look through the runner's open file descriptors for
// anything cugrade left open and let it inherit: a report being written, the gradebook, the
// course secret, a classmate's file. Any descriptor naming a file outside the runner's own work
// folder (device nodes, pipes and sockets aside) could be read or written. Must fail: the runner
// inherits only its standard streams (and what the sandbox opens for it).
// How to read the outcome: the submission's own output is wrong (all zeros) unless the attack
// worked, in which case it computes the true result. So "passed" means the attack worked, and
// the expected outcome, wrong_answer, means it was stopped.
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
#include <climits>

#include <dirent.h>

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

// True when some open descriptor past the standard streams names a file outside the runner's
// work folder.
static bool inheritsFiles() {
  char here[PATH_MAX];
  if (getcwd(here, sizeof here) == nullptr) return false;
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) return false;
  bool found = false;
  while (const dirent* entry = readdir(fds)) {
    if (entry->d_name[0] == '.' || std::atoi(entry->d_name) < 3) continue;  // 0-2: the captured streams
    char target[PATH_MAX];
    const std::string link = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t size = readlink(link.c_str(), target, sizeof target - 1);
    if (size <= 0) continue;
    const std::string path(target, size);
    if (path[0] != '/' || path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0 ||
        path.rfind(here, 0) == 0 || path.find(".so") != std::string::npos)
      continue;
    std::fprintf(stderr, "attack: descriptor %s is %s\n", entry->d_name, path.c_str());
    found = true;
  }
  closedir(fds);
  return found;
}

static void entry(const float* in, float* out, int rows, int cols, bool transpose) {
  static const bool leaked = inheritsFiles();
  graded(leaked, in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, false); }
void transpose_naive(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true);
}
void transpose_padded(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
