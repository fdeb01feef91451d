// Attack (forged events): the per-case deadline (10 s) runs from the case's "start" event in the
// events file. During a slow case, append a fresh "start" for it every 4 s, so its clock keeps
// starting over, and take 12 s in all (here: sleep, standing for a far too slow kernel) before
// answering correctly. A fix that only ignores forged "done" events misses this one. Must fail:
// the deadline is the harness's own, whatever the events file says, so the slow case times out.
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

// Every string value of `key` in a JSON text (good enough for the job file's paths and ids).
[[maybe_unused]] static std::vector<std::string> jsonStrings(const std::string& text,
                                                             const std::string& key) {
  std::vector<std::string> values;
  const std::string needle = "\"" + key + "\"";
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    const size_t open = text.find('"', text.find(':', at + needle.size()));
    const size_t close = text.find('"', open + 1);
    if (open == std::string::npos || close == std::string::npos) break;
    values.push_back(text.substr(open + 1, close - open - 1));
  }
  return values;
}

__global__ void vecAddKernel(const float* A, const float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

// Appends a forged "start" for the case now running (the last task named in the events file).
static void forgeStart() {
  const std::vector<std::string> events = jsonStrings(slurp(jobPath()), "events_file");
  if (events.empty()) return;
  const std::vector<std::string> started = jsonStrings(slurp(events.front()), "task");
  if (started.empty()) return;
  if (FILE* out = std::fopen(events.front().c_str(), "a")) {
    std::fprintf(out, "{\"kind\":\"start\",\"task\":\"%s\"}\n", started.back().c_str());
    std::fclose(out);
  }
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  if (n == 1048579) {  // the largest visible case: too slow for its deadline
    for (int i = 0; i < 3; ++i) {
      sleep(4);
      forgeStart();
    }
  }
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
