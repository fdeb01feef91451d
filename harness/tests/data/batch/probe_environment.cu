// A correct vecadd that also writes down what it can see of the grader (harness/tests/batch/
// hostile_files.sh): its own environment and command line, and its parent's environment. The
// test then looks for the course secret in what was written and in the whole work folder.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "interface.cuh"

extern char** environ;

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

static std::string slurp(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, got);
    std::fclose(f);
  } else {
    text = "(unreadable)";
  }
  return text;
}

/// Writes what it saw into cugrade-probe.txt in the first folder that takes it: where the
/// runner binary is, then the current folder.
static void write_down() {
  std::string seen = "environ:\n";
  for (char** e = environ; *e; ++e) (seen += *e) += '\n';
  seen += "cmdline:\n" + slurp("/proc/self/cmdline") + "\n";
  seen += "proc environ:\n" + slurp("/proc/self/environ") + "\n";
  seen += "parent environ:\n" + slurp("/proc/" + std::to_string(::getppid()) + "/environ") + "\n";
  char exe[4096] = {};
  std::string folder = ::readlink("/proc/self/exe", exe, sizeof exe - 1) > 0 ? std::string(exe) : std::string();
  folder = folder.substr(0, folder.rfind('/') + 1);
  for (const std::string& where : {folder, std::string()}) {
    if (FILE* f = std::fopen((where + "cugrade-probe.txt").c_str(), "wb")) {
      std::fwrite(seen.data(), 1, seen.size(), f);
      std::fclose(f);
      return;
    }
  }
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static bool written = false;
  if (!written) write_down();
  written = true;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
  cudaMalloc(&d_A, bytes);
  cudaMalloc(&d_B, bytes);
  cudaMalloc(&d_C, bytes);
  cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);
  cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
