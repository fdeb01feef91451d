// Attack (writes outside the work folder): in the first case, write a marker file into /tmp and
// crash, so that the harness starts a fresh runner for the other cases; the fresh runner looks
// for the marker. A /tmp shared between runners is shared between students too (a class's
// answers passed from one submission to the next), and a file there outlives the check. Must
// fail: each runner gets a private /tmp, so the fresh runner finds nothing and its cases are
// wrong: no point beyond the crash.
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

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  // One marker per check: named after this check's work folder.
  const std::string folder = checkDir();
  const std::string marker = "/tmp/" + folder.substr(folder.rfind('/') + 1) + "-attack-marker";
  static bool seen = false;
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    struct stat info;
    if (stat(marker.c_str(), &info) != 0) {  // the first runner: leave the marker, then crash
      if (FILE* out = std::fopen(marker.c_str(), "w")) std::fclose(out);
      std::abort();
    }
    seen = true;  // (left in place for the CPU backend's re-runs of the same check)
  }
  graded(seen, h_A, h_B, h_C, n);
}
