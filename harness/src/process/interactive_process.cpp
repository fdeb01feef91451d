// start_interactive(): fork and exec with a socket pair as the child's descriptors 3 and 4.
// Why a socket pair and not pipes: sending on a socket can refuse SIGPIPE (MSG_NOSIGNAL), so a
// child that dies mid-protocol is an answer, not a signal that kills the harness.
#include "process/interactive_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "process/sandbox.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// Longest reply line kept; a longer one is cut (and then fails the protocol's parsing).
constexpr std::size_t max_line_bytes = 1 << 16;

/// An anonymous file for the child's stdout or stderr (unlinked at once).
int anonymous_file() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "cugrade-serve-XXXXXX").string();
  const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(pattern.c_str());
  return fd;
}

std::size_t written_bytes(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
}

std::string read_capped(int fd, std::size_t limit) {
  std::string text(std::min(written_bytes(fd), limit), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t got = ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return text;
}

void set_limit(int resource, rlim_t value) {
  rlimit limit{value, value};
  rlimit current{};
  if (::getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY)
    limit.rlim_max = limit.rlim_cur = std::min(value, current.rlim_max);
  ::setrlimit(resource, &limit);
}

class ForkedProcess final : public InteractiveProcess {
 public:
  explicit ForkedProcess(const ProcessRequest& request) : limit_(request.output_limit_bytes) { start(request); }
  ~ForkedProcess() override {
    if (pid_ > 0) finish(0.0);
    for (int fd : {channel_, out_, err_})
      if (fd >= 0) ::close(fd);
  }

  bool started() const override { return pid_ > 0; }

  bool send(const std::string& line) override {
    if (channel_ < 0) return false;
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t sent = ::send(channel_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR) continue;
      if (sent <= 0) return false;
      done += static_cast<std::size_t>(sent);
    }
    return true;
  }

  std::optional<std::string> receive(double timeout_s) override {
    timed_out_ = false;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      const auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      if (buffer_.size() > max_line_bytes) {  // no newline in sight: cut, let the parser refuse it
        std::string line = buffer_.substr(0, max_line_bytes);
        buffer_.clear();
        return line;
      }
      if (channel_ < 0) return std::nullopt;
      if (written_bytes(out_) + written_bytes(err_) > limit_) {
        output_limit_exceeded_ = true;
        return std::nullopt;
      }
      const auto left = std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
      if (left <= 0) {
        timed_out_ = true;
        return std::nullopt;
      }
      // Wake at least every 20 ms to watch the output cap while the child computes.
      pollfd p{channel_, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::min(left, 20.0)) + 1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) continue;
      char chunk[4096];
      const ssize_t got = ::recv(channel_, chunk, sizeof chunk, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {  // the child closed its end (exited)
        ::close(channel_);
        channel_ = -1;
        continue;
      }
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

  bool timed_out() const override { return timed_out_; }

  ProcessResult finish(double grace_s) override {
    ProcessResult result;
    result.started = pid_ > 0;
    result.launch_error = launch_error_;
    if (pid_ <= 0) return result;
    if (channel_ >= 0) ::shutdown(channel_, SHUT_WR);  // end of commands: a well-behaved child exits
    int status = 0;
    bool ended = false;
    const auto deadline = Clock::now() + std::chrono::duration<double>(grace_s);
    while (!(ended = ::waitpid(pid_, &status, WNOHANG | __WALL) == pid_) && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    // The whole group, even when the leader ended: nothing the child started may outlive it.
    ::kill(-pid_, SIGKILL);
    if (!ended) {
      while (::waitpid(pid_, &status, __WALL) < 0 && errno == EINTR) {
      }
    }
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    else if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    // Through the sandbox a step killed by signal N exits 128 + N (process/sandbox.hpp).
    if (sandboxed_ && !result.signal && result.exit_code > 128 && result.exit_code < 128 + 65) {
      result.signal = result.exit_code - 128;
      result.exit_code = -1;
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - started_at_).count();
    result.output_limit_exceeded = output_limit_exceeded_;
    result.stdout_text = read_capped(out_, limit_);
    result.stderr_text = read_capped(err_, limit_);
    pid_ = -1;
    return result;
  }

 private:
  void start(const ProcessRequest& request) {
    if (request.argv.empty()) {
      launch_error_ = "no command given";
      return;
    }
    std::vector<std::string> argv = request.argv;
    if (request.sandbox) {
      auto wrapped = sandboxed_argv(request);
      if (!wrapped) {
        launch_error_ = wrapped.error().message;
        return;
      }
      argv = std::move(*wrapped);
      sandboxed_ = true;
    }
    if (argv.front().find('/') == std::string::npos) {
      launch_error_ = argv.front() + ": an interactive command needs a path";
      return;
    }
    if (::access(argv.front().c_str(), X_OK) != 0) {
      launch_error_ = argv.front() + ": not executable";
      return;
    }
    const auto environment = request.environment.empty() ? scrubbed_environment() : request.environment;
    std::vector<std::string> env_text;
    for (const auto& [name, value] : environment) env_text.push_back(name + "=" + value);
    std::vector<char*> args, envp;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
      launch_error_ = std::string("socketpair: ") + std::strerror(errno);
      return;
    }
    out_ = anonymous_file();
    err_ = anonymous_file();
    const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out_ < 0 || err_ < 0 || in < 0) {
      launch_error_ = std::string("cannot create the child's output files: ") + std::strerror(errno);
      for (int fd : {pair[0], pair[1], in}) if (fd >= 0) ::close(fd);
      return;
    }
    const std::string dir = request.working_dir.string();
    const pid_t parent = ::getpid();
    const std::optional<SandboxSpec>& sandbox = request.sandbox;
    started_at_ = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
      // The child: async-signal-safe calls only from here on.
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      set_limit(RLIMIT_CORE, 0);
      set_limit(RLIMIT_FSIZE, sandbox ? sandbox->file_bytes : rlim_t{4} << 30);
      if (sandbox && sandbox->cpu_seconds) set_limit(RLIMIT_CPU, sandbox->cpu_seconds);
      if (sandbox && sandbox->max_open_files) set_limit(RLIMIT_NOFILE, sandbox->max_open_files);
      if (sandbox && sandbox->address_space_bytes) set_limit(RLIMIT_AS, sandbox->address_space_bytes);
      if (request.address_space_bytes) set_limit(RLIMIT_AS, request.address_space_bytes);
      // Each descriptor moved above 9 first: dup2 onto the number a descriptor already has does
      // nothing, and would leave that one close-on-exec.
      const int high_in = ::fcntl(in, F_DUPFD, 10), high_out = ::fcntl(out_, F_DUPFD, 10),
                high_err = ::fcntl(err_, F_DUPFD, 10), high_channel = ::fcntl(pair[1], F_DUPFD, 10);
      if (high_in < 0 || high_out < 0 || high_err < 0 || high_channel < 0 || ::dup2(high_in, 0) < 0 ||
          ::dup2(high_out, 1) < 0 || ::dup2(high_err, 2) < 0 || ::dup2(high_channel, 3) < 0 ||
          ::dup2(high_channel, 4) < 0)
        ::_exit(127);
      ::close_range(5, ~0U, 0);
      if (!dir.empty() && ::chdir(dir.c_str()) != 0) ::_exit(127);
      ::umask(022);  // what this step writes, the next step (another user in the sandbox) may read
      ::execve(args[0], args.data(), envp.data());
      ::_exit(127);
    }
    ::close(in);
    ::close(pair[1]);
    if (pid < 0) {
      launch_error_ = std::string("fork: ") + std::strerror(errno);
      ::close(pair[0]);
      return;
    }
    pid_ = pid;
    channel_ = pair[0];
  }

  std::size_t limit_;
  pid_t pid_ = -1;
  int channel_ = -1, out_ = -1, err_ = -1;
  std::string buffer_, launch_error_;
  bool timed_out_ = false, output_limit_exceeded_ = false, sandboxed_ = false;
  Clock::time_point started_at_ = Clock::now();
};

}  // namespace

std::unique_ptr<InteractiveProcess> start_interactive(const ProcessRequest& request) {
  return std::make_unique<ForkedProcess>(request);
}

std::unique_ptr<InteractiveProcess> ProcessRunner::start(const ProcessRequest& request) {
  return start_interactive(request);
}

}  // namespace cugrade
