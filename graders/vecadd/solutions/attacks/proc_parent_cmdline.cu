// Attack (the runner is not contained): walk up the process tree through /proc and read the
// command line and environment of cugrade itself: its argv names the --secret-file, the --report
// and --out paths and the submissions folder; its environment may hold CUGRADE_COURSE_SECRET.
// Must fail: the runner lives in its own PID namespace with a private /proc, so no ancestor it
// can see is cugrade.
// How to read the outcome: the submission's own numbers are wrong (every C[i] = 0) unless the
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

// The whole content of a file ("" when it cannot be read).
[[maybe_unused]] static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The parent of `pid`, from /proc/<pid>/stat (the field after the state).
[[maybe_unused]] static int parentOf(int pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  int ppid = 0;
  char state = 0;
  if (close == std::string::npos || std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2)
    return 0;
  return ppid;
}

// The nearest ancestor whose argv[0] is the cugrade program, or 0 when none can be seen.
[[maybe_unused]] static int cugradeAncestor() {
  for (int pid = getppid(), hops = 0; pid > 1 && hops < 16; pid = parentOf(pid), ++hops) {
    const std::string raw = slurp("/proc/" + std::to_string(pid) + "/cmdline");
    const std::string argv0 = raw.substr(0, raw.find('\0'));
    const size_t slash = argv0.rfind('/');
    if (argv0.substr(slash == std::string::npos ? 0 : slash + 1) == "cugrade") return pid;
  }
  return 0;
}

// True when cugrade's argv and environment can be read from here.
static bool readsCugrade() {
  const int pid = cugradeAncestor();
  if (pid == 0) return false;
  std::string argv = slurp("/proc/" + std::to_string(pid) + "/cmdline");
  for (char& c : argv)
    if (c == '\0') c = ' ';
  const std::string env = slurp("/proc/" + std::to_string(pid) + "/environ");
  std::fprintf(stderr, "attack: cugrade is pid %d: %s (environment: %zu bytes)\n", pid, argv.c_str(),
               env.size());
  return !argv.empty();
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  graded(readsCugrade(), h_A, h_B, h_C, n);
}
