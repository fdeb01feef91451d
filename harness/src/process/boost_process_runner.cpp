// The real ProcessRunner: Boost.Process (v1) with the child in its own process group, output
// to temp files, and a polling loop that enforces the time, output and watchdog limits.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>

#include "core/result.hpp"
#include "process/process_runner.hpp"
#include "process/sandbox.hpp"

namespace cugrade {

namespace {

namespace bp = boost::process;
namespace fs = std::filesystem;

/// Largest file a child may write (RLIMIT_FSIZE).
constexpr rlim_t max_file_bytes = rlim_t{4} << 30;

/// A file descriptor closed when it goes out of scope.
class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  UniqueFd& operator=(UniqueFd&&) = delete;
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

/// The three descriptors the child gets as stdin, stdout and stderr.
struct ChildStreams {
  UniqueFd in;
  UniqueFd out;
  UniqueFd err;
};

/// Opens stdin (/dev/null) and two anonymous output files. Why files and not pipes: a child
/// that floods its output cannot block on a full pipe while we are busy, and the files' sizes
/// tell us how much it wrote without reading it. Why unnamed (O_TMPFILE): nothing is ever left
/// behind, even if the harness itself is killed. Where the file system has no unnamed files, a
/// private directory removed at once: the names cannot collide with another run, and only a
/// harness killed in the microseconds between making and removing it leaves that directory.
Result<ChildStreams> open_child_streams() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  const auto unnamed = [&] { return ::open(base.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600); };
  {
    ChildStreams streams{UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd(unnamed()), UniqueFd(unnamed())};
    if (streams.in.get() >= 0 && streams.out.get() >= 0 && streams.err.get() >= 0) return streams;
  }
  std::string pattern = (base / "cugrade-run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail("cannot create a temporary directory in " + base.string() + ": " +
                std::strerror(errno));
  }
  const fs::path dir = pattern;
  auto open_output = [&](const char* name) {
    return ::open((dir / name).c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  };
  ChildStreams streams{UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)),
                       UniqueFd(open_output("stdout")), UniqueFd(open_output("stderr"))};
  const int open_errno = errno;
  fs::remove_all(dir, ec);
  if (streams.in.get() < 0 || streams.out.get() < 0 || streams.err.get() < 0) {
    return fail("cannot create the output files of a child process in " + dir.string() + ": " +
                std::strerror(open_errno));
  }
  return streams;
}

/// Runs in the child between fork and exec (async-signal-safe calls only).
struct ChildSetup : bp::extend::handler {
  int in_fd;
  int out_fd;
  int err_fd;
  pid_t parent;  ///< this process, as the child must find it
  bool sandboxed;  ///< runs bwrap: what the step writes must be readable by the next step's user
  std::uint64_t address_space_bytes;  ///< RLIMIT_AS; 0 = none

  template <class Executor>
  void on_exec_setup(Executor& exec) const {
    // Own process group: nvcc spawns cicc, ptxas and the host compiler, and a student's runner
    // may fork; killing the group (kill(-pgid)) reaches all of them, not only the one we started.
    if (::setpgid(0, 0) != 0) {
      exec.set_error(std::error_code(errno, std::system_category()), "setpgid");
      return;
    }
    // Dies with us: being in its own group, the child would otherwise outlive a cugrade that is
    // killed (a batch stopped with SIGKILL), an endless loop spinning on, a runner writing into
    // a work folder the next run reuses. If we died before this line, it ends itself at once.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // A sandboxed step may run as a user of its own (cugrade as root, process/sandbox.hpp): the
    // files it makes must stay readable by the next step (the runner it links, its outputs).
    if (sandboxed) ::umask(022);
    // No core dumps: a crashing runner would otherwise write gigabytes per submission.
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // A runaway writer cannot fill the disk; the limit cannot be raised above the current one.
    rlimit fsize{};
    if (::getrlimit(RLIMIT_FSIZE, &fsize) == 0) {
      fsize.rlim_max = std::min(fsize.rlim_max, max_file_bytes);
      fsize.rlim_cur = std::min(fsize.rlim_cur, fsize.rlim_max);
      ::setrlimit(RLIMIT_FSIZE, &fsize);
    }
    if (address_space_bytes > 0) {
      const rlimit as{address_space_bytes, address_space_bytes};
      ::setrlimit(RLIMIT_AS, &as);
    }
    if (::dup2(in_fd, STDIN_FILENO) < 0 || ::dup2(out_fd, STDOUT_FILENO) < 0 ||
        ::dup2(err_fd, STDERR_FILENO) < 0) {
      exec.set_error(std::error_code(errno, std::system_category()), "dup2");
      return;
    }
    // Nothing else of ours leaks into the child (another run's output files, the harness's
    // open files): every other descriptor closes at exec. Boost's own error pipe is already
    // close-on-exec, so this does not disturb it. Failure (an old kernel) is not fatal.
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  }
};

/// Everything the child wrote to `fd`, up to `limit` bytes.
std::string read_capped(int fd, std::size_t limit) {
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return text;
  text.resize(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), limit));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t got =
        ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return text;
}

/// Bytes written so far to `fd`.
std::size_t written_bytes(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
}

/// True once the process has ended; it is left a zombie (WNOWAIT) so that its pid, which is
/// also its process group's id, cannot be reused before we have killed the group.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno != EINTR;  // ECHILD: nothing left to wait for
  }
  return info.si_pid == pid;
}

/// The value of PATH in `environment`, split into directories.
std::vector<boost::filesystem::path> path_directories(
    const std::map<std::string, std::string>& environment) {
  std::vector<boost::filesystem::path> dirs;
  auto it = environment.find("PATH");
  if (it == environment.end()) return dirs;
  std::string_view rest = it->second;
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    dirs.emplace_back(dir.empty() ? std::string(".") : std::string(dir));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return dirs;
}

/// The executable argv[0] names: a path as given (relative to our current directory), or a
/// bare name looked up on the child's PATH.
Result<fs::path> resolve_executable(const std::string& name,
                                    const std::map<std::string, std::string>& environment) {
  if (name.find('/') != std::string::npos) {
    std::error_code ec;
    const fs::path path = fs::absolute(name, ec);
    if (ec || !fs::is_regular_file(path, ec)) return fail(name + ": no such file");
    if (::access(path.c_str(), X_OK) != 0) return fail(name + ": not executable");
    return path;
  }
  const boost::filesystem::path found = bp::search_path(name, path_directories(environment));
  if (found.empty()) return fail(name + ": not found on PATH");
  return fs::path(found.string());
}

class BoostProcessRunner final : public ProcessRunner {
 public:
  ProcessResult run(const ProcessRequest& request) override;
};

ProcessResult BoostProcessRunner::run(const ProcessRequest& request) {
  using Clock = std::chrono::steady_clock;
  ProcessResult result;
  if (request.argv.empty()) {
    result.launch_error = "no command given";
    return result;
  }
  // What is executed: argv as asked, or bwrap's command line around it (process/sandbox.cpp:
  // the environment and the working folder inside travel as its options).
  std::map<std::string, std::string> environment;
  std::vector<std::string> command;
  fs::path executable;
  std::error_code ec;
  if (!request.working_dir.empty() && !fs::is_directory(request.working_dir, ec)) {
    result.launch_error = "working directory " + request.working_dir.string() + " does not exist";
    return result;
  }
  std::string start_dir =
      request.working_dir.empty() ? fs::current_path(ec).string() : request.working_dir.string();
  if (request.sandbox) {
    Result<std::vector<std::string>> sandboxed = sandboxed_argv(request);
    if (!sandboxed) {
      result.launch_error = sandboxed.error().message;
      return result;
    }
    command = std::move(*sandboxed);
    executable = command.front();
    start_dir = "/";  // bwrap itself needs nothing of ours, not even our environment
  } else {
    environment = request.environment.empty() ? scrubbed_environment() : request.environment;
    const Result<fs::path> resolved = resolve_executable(request.argv.front(), environment);
    if (!resolved) {
      result.launch_error = resolved.error().message;
      return result;
    }
    executable = *resolved;
    command = request.argv;
  }
  Result<ChildStreams> streams = open_child_streams();
  if (!streams) {
    result.launch_error = streams.error().message;
    return result;
  }

  bp::environment child_environment;
  for (const auto& [name, value] : environment) child_environment[name] = value;
  const std::vector<std::string> args(command.begin() + 1, command.end());
  const ChildSetup setup{{}, streams->in.get(), streams->out.get(), streams->err.get(), ::getpid(),
                         request.sandbox.has_value(), request.address_space_bytes};

  const auto started_at = Clock::now();
  bp::child child(bp::exe = executable.string(), bp::args = args, bp::env = child_environment,
                  bp::start_dir = start_dir, setup, ec);
  if (ec || !child.valid()) {
    result.launch_error = request.argv.front() + ": cannot start: " + ec.message();
    return result;
  }
  result.started = true;
  const pid_t pid = child.id();

  // Poll quickly at first (most commands are short), then every 20 ms.
  auto pause = std::chrono::milliseconds(1);
  while (!has_ended(pid)) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - started_at).count();
    if (elapsed > request.timeout_s) {
      result.timed_out = true;
    } else if (written_bytes(streams->out.get()) + written_bytes(streams->err.get()) >
               request.output_limit_bytes) {
      result.output_limit_exceeded = true;
    } else if (request.should_kill && request.should_kill()) {
      result.killed_by_watchdog = true;
    }
    if (result.timed_out || result.output_limit_exceeded || result.killed_by_watchdog) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  // Kill the whole group even when the leader ended on its own: a background process it left
  // behind would otherwise keep running (and writing) after we have read the results.
  ::kill(-pid, SIGKILL);
  child.wait(ec);  // reaps the leader; no zombie is left
  result.seconds = std::chrono::duration<double>(Clock::now() - started_at).count();

  const int status = child.native_exit_code();
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // bwrap passes a step's death by signal N on as exit code 128 + N, as shells do.
    if (request.sandbox && result.exit_code > 128 && result.exit_code <= 128 + 64) {
      result.signal = result.exit_code - 128;
      result.exit_code = -1;
    }
  }
  result.stdout_text = read_capped(streams->out.get(), request.output_limit_bytes);
  result.stderr_text = read_capped(streams->err.get(), request.output_limit_bytes);
  return result;
}

}  // namespace

std::unique_ptr<ProcessRunner> make_process_runner() {
  return std::make_unique<BoostProcessRunner>();
}

}  // namespace cugrade
