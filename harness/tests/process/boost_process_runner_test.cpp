// Real processes through make_process_runner(): exit codes, signals, limits, process groups.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "process/process_runner.hpp"

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

/// A fresh empty directory for one test.
fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "cugrade-test-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// True when `pid` no longer runs: gone, or a zombie waiting for init to reap it.
bool process_is_gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && stat.size() > close + 2 && stat[close + 2] == 'Z';
}

/// True when this process has no child left, reaped or not (no zombie of ours).
bool no_children_left() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD;
}

ProcessRequest shell(const std::string& script) {
  ProcessRequest request;
  request.argv = {"sh", "-c", script};
  return request;
}

}  // namespace

TEST_CASE("process::make_process_runner") {
  auto runner = make_process_runner();

  SUBCASE("reports the exit code and the output") {
    const ProcessResult result = runner->run(shell("echo hi; echo oops >&2; exit 3"));
    CHECK(result.started);
    CHECK(result.launch_error.empty());
    CHECK(result.exit_code == 3);
    CHECK_FALSE(result.signal.has_value());
    CHECK(result.stdout_text == "hi\n");
    CHECK(result.stderr_text == "oops\n");
    CHECK_FALSE(result.timed_out);
    CHECK_FALSE(result.output_limit_exceeded);
    CHECK(result.seconds >= 0.0);
    CHECK(result.seconds < 5.0);
    CHECK(no_children_left());
  }

  SUBCASE("an address-space limit holds in the child (a CPU runner's memory, sealed or not)") {
    ProcessRequest request = shell("ulimit -v");
    request.address_space_bytes = std::uint64_t{256} << 20;
    const ProcessResult result = runner->run(request);
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text == "262144\n");  // KiB
  }

  SUBCASE("a timeout kills the whole process group, grandchildren included") {
    const fs::path dir = make_temp_dir();
    ProcessRequest request = shell("sleep 10 & echo $! > grandchild.pid; sleep 10");
    request.working_dir = dir;
    request.timeout_s = 0.3;
    const auto begin = std::chrono::steady_clock::now();
    const ProcessResult result = runner->run(request);
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    CHECK(result.started);
    CHECK(result.timed_out);
    CHECK(result.signal == SIGKILL);
    CHECK(waited < 3.0);
    const pid_t grandchild = std::stoi(read_text(dir / "grandchild.pid"));
    // The grandchild was reparented; give init a moment to reap it.
    bool gone = process_is_gone(grandchild);
    for (int i = 0; i < 100 && !gone; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gone = process_is_gone(grandchild);
    }
    CHECK(gone);
    CHECK(no_children_left());
    fs::remove_all(dir);
  }

  SUBCASE("a background process left behind is killed when the leader exits") {
    const fs::path dir = make_temp_dir();
    ProcessRequest request = shell("sleep 10 & echo $! > orphan.pid; exit 0");
    request.working_dir = dir;
    const ProcessResult result = runner->run(request);
    CHECK(result.exit_code == 0);
    const pid_t orphan = std::stoi(read_text(dir / "orphan.pid"));
    bool gone = process_is_gone(orphan);
    for (int i = 0; i < 100 && !gone; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gone = process_is_gone(orphan);
    }
    CHECK(gone);
    fs::remove_all(dir);
  }

  SUBCASE("an output flood is stopped at the cap") {
    ProcessRequest request;
    request.argv = {"yes"};
    request.output_limit_bytes = 64 * 1024;
    request.timeout_s = 20.0;
    const ProcessResult result = runner->run(request);
    CHECK(result.started);
    CHECK(result.output_limit_exceeded);
    CHECK_FALSE(result.timed_out);
    CHECK(result.signal == SIGKILL);
    CHECK(result.stdout_text.size() == request.output_limit_bytes);
    CHECK(result.stdout_text.starts_with("y\ny\n"));
  }

  SUBCASE("a death by signal is reported as the signal") {
    const ProcessResult result = runner->run(shell("kill -SEGV $$"));
    CHECK(result.started);
    CHECK(result.signal == SIGSEGV);
    CHECK(result.exit_code == -1);
    CHECK_FALSE(result.timed_out);
  }

  SUBCASE("the watchdog kills the group when should_kill says so") {
    ProcessRequest request = shell("sleep 10");
    int polls = 0;
    request.should_kill = [&polls] { return ++polls >= 3; };
    const ProcessResult result = runner->run(request);
    CHECK(result.killed_by_watchdog);
    CHECK_FALSE(result.timed_out);
    CHECK(result.signal == SIGKILL);
    CHECK(polls == 3);
  }

  SUBCASE("an unknown program is not started") {
    ProcessRequest request;
    request.argv = {"cugrade-no-such-program", "--version"};
    const ProcessResult result = runner->run(request);
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "cugrade-no-such-program: not found on PATH");
  }

  SUBCASE("a path that does not exist is not started") {
    ProcessRequest request;
    request.argv = {"/nonexistent/bin/nvcc"};
    const ProcessResult result = runner->run(request);
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "/nonexistent/bin/nvcc: no such file");
  }

  SUBCASE("an empty command is not started") {
    const ProcessResult result = runner->run(ProcessRequest{});
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "no command given");
  }

  SUBCASE("the environment is exactly the requested one") {
    ProcessRequest request = shell("env | sort");
    request.environment = {{"PATH", "/usr/bin:/bin"}, {"CUGRADE_PROBE", "42"}};
    const ProcessResult result = runner->run(request);
    CHECK(result.exit_code == 0);
    // sh itself may add PWD (and dash SHLVL-like variables); nothing of ours comes through.
    CHECK(result.stdout_text.find("CUGRADE_PROBE=42\n") != std::string::npos);
    CHECK(result.stdout_text.find("HOME=") == std::string::npos);
  }

  SUBCASE("an empty environment means the scrubbed one") {
    ::setenv("CUGRADE_TEST_SECRET", "hunter2", 1);
    const ProcessResult result = runner->run(shell("env"));
    ::unsetenv("CUGRADE_TEST_SECRET");
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text.find("CUGRADE_TEST_SECRET") == std::string::npos);
    CHECK(result.stdout_text.find("LANG=C\n") != std::string::npos);
  }

  SUBCASE("the program is looked up on the child's PATH, not ours") {
    ProcessRequest request;
    request.argv = {"sh", "-c", "exit 0"};
    request.environment = {{"PATH", "/nonexistent"}};
    const ProcessResult result = runner->run(request);
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "sh: not found on PATH");
  }

  SUBCASE("runs in the working directory") {
    const fs::path dir = make_temp_dir();
    ProcessRequest request;
    request.argv = {"pwd"};
    request.working_dir = dir;
    const ProcessResult result = runner->run(request);
    CHECK(result.stdout_text == fs::canonical(dir).string() + "\n");
    fs::remove_all(dir);
  }

  SUBCASE("a missing working directory is a launch error") {
    ProcessRequest request;
    request.argv = {"pwd"};
    request.working_dir = "/nonexistent/cugrade";
    const ProcessResult result = runner->run(request);
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "working directory /nonexistent/cugrade does not exist");
  }

  SUBCASE("the child has no core dumps and a 4 GiB file size limit") {
    ProcessRequest request;
    request.argv = {"cat", "/proc/self/limits"};
    const ProcessResult result = runner->run(request);
    CHECK(result.exit_code == 0);
    // Lines look like "Max core file size    0    0    bytes".
    auto limits_of = [&](const std::string& name) {
      const auto at = result.stdout_text.find(name);
      REQUIRE(at != std::string::npos);
      std::istringstream words(result.stdout_text.substr(at + name.size()));
      std::string soft, hard;
      words >> soft >> hard;
      return std::pair{soft, hard};
    };
    const auto core = limits_of("Max core file size");
    CHECK(core.first == "0");
    CHECK(core.second == "0");
    const auto file_size = limits_of("Max file size");
    CHECK(std::stoull(file_size.first) <= (4ull << 30));
    CHECK(std::stoull(file_size.second) <= (4ull << 30));
  }

  SUBCASE("the child runs in its own process group") {
    const ProcessResult result = runner->run(shell("ps -o pgid= -p $$; echo $$"));
    std::istringstream words(result.stdout_text);
    long pgid = 0, pid = 0;
    words >> pgid >> pid;
    CHECK(pgid == pid);
    CHECK(pgid != ::getpgrp());
  }

  SUBCASE("leaves no temporary files behind") {
    const fs::path dir = make_temp_dir();
    const char* previous = std::getenv("TMPDIR");
    const std::string saved = previous ? previous : "";
    ::setenv("TMPDIR", dir.c_str(), 1);
    runner->run(shell("echo output; echo error >&2"));
    ProcessRequest killed = shell("sleep 10");
    killed.timeout_s = 0.1;
    runner->run(killed);
    if (previous)
      ::setenv("TMPDIR", saved.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    CHECK(fs::is_empty(dir));
    fs::remove_all(dir);
  }
}
