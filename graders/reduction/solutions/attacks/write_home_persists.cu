// Attack (writes outside the work folder): in the first case, write a marker file into $HOME
// (the grader's home: shell start-up files, ssh keys, the course's checkout) and crash, so that
// the harness starts a fresh runner for the other cases; the fresh runner looks for the marker.
// It crashes once per check (a note in the work folder, which outlives its runner, says it
// did): one fresh runner is all the test needs, not one per case.
// Must fail: the runner's $HOME, if any, is private to one runner and nothing of the grader's
// home is writable, so the fresh runner finds nothing and its cases are wrong: no point beyond
// the crash.
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

// The check's own work folder, also from the CPU backend's re-runs (its reverse/ and poison-N/).
[[maybe_unused]] static std::string checkDir() {
  const std::string dir = workDir();
  const std::string last = dir.substr(dir.rfind('/') + 1);
  return last == "reverse" || last.rfind("poison-", 0) == 0 ? dir.substr(0, dir.rfind('/')) : dir;
}

static void entry(const int* in, long long* out, int n) {
  const char* home = std::getenv("HOME");
  const std::string folder = checkDir();
  const std::string marker =
      std::string(home ? home : "/root") + "/.cugrade-attack-" + folder.substr(folder.rfind('/') + 1);
  const std::string crashed = folder + "/attack-crashed";
  static bool seen = false;
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    struct stat info;
    if (stat(crashed.c_str(), &info) != 0) {  // the first runner: leave the marker, then crash
      if (FILE* file = std::fopen(marker.c_str(), "w")) std::fclose(file);
      if (FILE* file = std::fopen(crashed.c_str(), "w")) std::fclose(file);
      std::abort();
    }
    seen = stat(marker.c_str(), &info) == 0;  // (left in place for the CPU backend's re-runs of the same check)
  }
  graded(seen, in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
