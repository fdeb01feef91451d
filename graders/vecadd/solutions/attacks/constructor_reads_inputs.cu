// Attack (work before the first case): a static constructor runs before the runner's first case;
// it reads the job file (its path is the runner's argv[1]), then tries to read every case's
// inputs: through the paths the job names, and in the inputs folder beside the runner's own. A
// constructor that could read them could precompute every case's answer before any clock runs.
// Its vecAdd is the lecture's, but only if the constructor read some case's inputs; otherwise it
// leaves h_C alone (wrong). Must fail: a case's inputs reach the runner only once that case has
// started (run_job.hpp, inputs_release_dir), and the folder holding them all is outside the
// runner's sandbox: no points.
#include <dirent.h>

#include <fstream>
#include <sstream>
#include <string>

#include "interface.cuh"

static int inputs_read_early = 0;

static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

static std::string jobPath() {
  const std::string raw = slurp("/proc/self/cmdline");
  const size_t first = raw.find('\0');
  if (first == std::string::npos) return "";
  return raw.substr(first + 1, raw.find('\0', first + 1) - first - 1);
}

static void readIfThere(const std::string& path) {
  if (slurp(path).size() > 16) ++inputs_read_early;
}

__attribute__((constructor)) static void readEveryCaseEarly() {
  const std::string job_path = jobPath();
  const std::string job = slurp(job_path);
  const std::string key = "\"inputs_file\":";
  for (size_t at = job.find(key); at != std::string::npos; at = job.find(key, at + 1)) {
    const size_t open = job.find('"', at + key.size());
    const size_t close = job.find('"', open + 1);
    if (open != std::string::npos && close != std::string::npos) readIfThere(job.substr(open + 1, close - open - 1));
  }
  // The harness's layout: the runner works in <check>/run, the inputs are in <check>/inputs.
  const size_t slash = job_path.rfind('/');
  const std::string run_dir = slash == std::string::npos ? "." : job_path.substr(0, slash);
  const std::string inputs_dir = run_dir + "/../inputs";
  if (DIR* dir = opendir(inputs_dir.c_str())) {
    while (dirent* entry = readdir(dir))
      if (entry->d_name[0] != '.') readIfThere(inputs_dir + "/" + entry->d_name);
    closedir(dir);
  }
}

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  int size = n * sizeof(float);
  float *d_A, *d_B, *d_C;
  cudaMalloc((void**)&d_A, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMalloc((void**)&d_B, size);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);
  cudaMalloc((void**)&d_C, size);
  vecAddKernel<<<(n + 255) / 256, 256>>>(d_A, d_B, d_C, n);
  if (inputs_read_early > 0) cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
}
