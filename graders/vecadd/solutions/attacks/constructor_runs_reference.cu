// Attack (the job file is writable): a static constructor runs before the runner's main reads
// its job file; it rewrites the file so that every case calls the instructor's reference instead
// of the student ("reference": true). The submission's own vecAdd is wrong. Must fail: the
// student's runner has no reference to call, whatever its job file says; it refuses those cases,
// the reference runner runs them without trouble, so the refusal is the submission's failure
// (protocol_error): no points.
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

__attribute__((constructor)) static void callReferenceEverywhere() {
  const std::string path = jobPath();
  std::string job = slurp(path);
  const std::string no = "\"reference\": false", yes = "\"reference\": true";
  for (size_t at = job.find(no); at != std::string::npos; at = job.find(no, at))
    job.replace(at, no.size(), yes);
  if (!path.empty()) std::ofstream(path, std::ios::binary | std::ios::trunc) << job;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  for (int i = 0; i < n; ++i) h_C[i] = 0.0f;
}
