// Attack (the work folder's other files): sum the input while zeroing it behind (using a const
// input as scratch memory, which interface.cuh forbids: inputs must be left unchanged). The
// runner writes the inputs back after each call (*.readback) so the harness can see the change;
// an exit handler, run after the last case, copies every case's original input file over its
// readback, so no change is seen. Must fail: the harness learns whether the inputs changed from
// something the student's process cannot rewrite, so every case says "modified its const input".
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
#include <cstdlib>

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

// Sums `in` into `out`, zeroing each element once read.
__global__ void sumAndClear(const int* in, long long* out, int n) {
  __shared__ long long partial[256];
  int* scratch = const_cast<int*>(in);
  const unsigned int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * 256 + t;
  partial[t] = 0;
  if (i < n) {
    partial[t] = scratch[i];
    scratch[i] = 0;
  }
  __syncthreads();
  for (unsigned int half = 128; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(partial[0]));
}

// Every case's readback becomes a copy of its original input file.
static void forgeReadbacks() {
  const std::string job = slurp(jobPath());
  const std::vector<std::string> inputs = jsonStrings(job, "inputs_file");
  const std::vector<std::string> readbacks = jsonStrings(job, "readback_file");
  for (size_t k = 0; k < readbacks.size() && k < inputs.size(); ++k) {
    std::ifstream probe(readbacks[k]);
    if (probe) std::ofstream(readbacks[k], std::ios::binary | std::ios::trunc) << slurp(inputs[k]);
  }
}

static void entry(const int* in, long long* out, int n) {
  static const bool registered = std::atexit(forgeReadbacks) == 0;
  (void)registered;
  cudaMemsetAsync(out, 0, sizeof(long long));
  sumAndClear<<<(n + 255) / 256, 256>>>(in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
