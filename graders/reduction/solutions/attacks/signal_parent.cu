// Attack (the runner is not contained): send a signal to cugrade itself. SIGCONT, which does
// nothing to a running process, stands for SIGSTOP (the grader hangs), SIGKILL (no report at all,
// a whole batch lost) or SIGINT. Must fail: from its own PID namespace the runner cannot name, let
// alone signal, any process outside it.
// How to read the outcome: the submission's own answer is wrong (every sum is 0) unless the
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

// True when cugrade could be sent a (harmless) signal from here.
static bool signals() {
  const int pid = cugradeAncestor();
  if (pid == 0 || kill(pid, SIGCONT) != 0) return false;
  std::fprintf(stderr, "attack: could signal cugrade (pid %d)\n", pid);
  return true;
}

static void entry(const int* in, long long* out, int n) {
  static const bool signalled = signals();
  graded(signalled, in, out, n);
}

void reduce_1(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { entry(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { entry(in, out, n); }
