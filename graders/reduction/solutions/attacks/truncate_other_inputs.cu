// Attack (the work folder's other files): in the first case, empty every other case's input
// file. The runner then cannot read those inputs and reports it (a `fatal` event: "the runner
// could not run this case"), which used to make each such case an ungraded harness_error that
// never costs points and that a batch retries forever. The submission's own answer is wrong.
// Must fail: a runner failure is the student's unless the harness reproduces it with the
// reference on inputs it knows to be intact, so every case is charged to the submission.
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

static void entry(const int* in, long long* out, int n) {
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    for (const std::string& file : jsonStrings(slurp(jobPath()), "inputs_file")) truncate(file.c_str(), 0);
  }
  graded(false, in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
