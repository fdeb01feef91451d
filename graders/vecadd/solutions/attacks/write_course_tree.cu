// Attack (writes outside the work folder): find the course's files and try to create a file
// among them: the folder this submission was compiled from (__FILE__: the course tree for a
// self-test, the students' folder in a batch), the folders of cugrade's own program and its
// current folder (through /proc). A runner that can write there can change the reference, the
// graders, a classmate's submission or a report. Each probe creates a file and removes it at
// once, so even when the attack works it changes nothing. Must fail: the runner sees only its
// own work folder writable; everything else is read-only or absent.
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
#include <climits>

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

static std::string parentFolder(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

static std::string linkTarget(const std::string& link) {
  char target[PATH_MAX];
  const ssize_t size = readlink(link.c_str(), target, sizeof target - 1);
  return size > 0 ? std::string(target, size) : "";
}

// Creates and at once removes a file in `folder`; true when that worked and `folder` is outside
// the runner's own work folder.
static bool canWrite(const std::string& folder, const std::string& own) {
  char resolved[PATH_MAX];
  if (folder.empty() || !realpath(folder.c_str(), resolved)) return false;
  const std::string where = resolved;
  if (where.rfind(own, 0) == 0) return false;  // its own work folder may be written
  const std::string probe = where + "/.cugrade-attack-probe-" + std::to_string(getpid());
  const int fd = open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) return false;
  close(fd);
  unlink(probe.c_str());
  std::fprintf(stderr, "attack: could write into %s\n", where.c_str());
  return true;
}

static bool writesOutside() {
  char own[PATH_MAX];
  if (!realpath(checkDir().c_str(), own)) return false;
  std::vector<std::string> folders = {parentFolder(__FILE__)};
  if (const int pid = cugradeAncestor()) {
    const std::string program = linkTarget("/proc/" + std::to_string(pid) + "/exe");
    folders.push_back(parentFolder(program));                // build/harness
    folders.push_back(parentFolder(parentFolder(program)));  // build
    folders.push_back(linkTarget("/proc/" + std::to_string(pid) + "/cwd"));
  }
  bool any = false;
  for (const auto& folder : folders) any = canWrite(folder, own) || any;
  return any;
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static const bool escaped = writesOutside();
  graded(escaped, h_A, h_B, h_C, n);
}
