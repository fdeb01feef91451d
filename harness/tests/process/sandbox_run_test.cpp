// Real sandboxed steps through make_process_runner(): what a hostile step can no longer do.
// Skipped, saying why, where bubblewrap does not work (sandbox_status()).
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "process/sandbox.hpp"

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

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

/// True (after a message) when the sandbox cannot run here.
bool sandbox_missing() {
  const SandboxStatus& status = sandbox_status();
  if (status.works) return false;
  MESSAGE("skipped: the sandbox does not work here: " << status.reason << " (" << status.fix << ")");
  return true;
}

/// A shell script run sealed, with `work` as its writable folder and working folder.
ProcessRequest sealed_shell(const fs::path& work, const std::string& script) {
  ProcessRequest request;
  request.argv = {"sh", "-c", script};
  request.working_dir = work;
  request.timeout_s = 20.0;
  request.sandbox = SandboxSpec{};
  request.sandbox->mounts.push_back({work, {}, true});
  return request;
}

}  // namespace

TEST_CASE("process::sandbox_status") {
  const SandboxStatus& status = sandbox_status();
  CHECK(&status == &sandbox_status());  // tried once
  if (status.works) {
    CHECK(status.reason.find("bubblewrap") != std::string::npos);
    CHECK(status.fix.empty());
  } else {
    CHECK_FALSE(status.reason.empty());
    CHECK_FALSE(status.fix.empty());
    CHECK(unsealed_note(status).rfind("not sealed: ", 0) == 0);
  }
}

TEST_CASE("process::sandboxed run") {
  if (sandbox_missing()) return;
  auto runner = make_process_runner();
  const fs::path work = make_temp_dir();
  const fs::path outside = make_temp_dir();

  SUBCASE("it runs, writes its own folder, and reports exit codes and signals") {
    const ProcessResult result = runner->run(sealed_shell(work, "echo hi; echo out > made; exit 3"));
    CHECK(result.started);
    CHECK(result.exit_code == 3);
    CHECK(result.stdout_text == "hi\n");
    CHECK(read_text(work / "made") == "out\n");
    const ProcessResult crashed = runner->run(sealed_shell(work, "kill -SEGV $$"));
    REQUIRE(crashed.signal.has_value());
    CHECK(*crashed.signal == SIGSEGV);
  }

  SUBCASE("files outside its folders are not there: a secret, the repository, the host's /tmp and /etc") {
    std::ofstream(outside / "secret") << "course secret";
    const ProcessResult result = runner->run(sealed_shell(
        work, "cat " + (outside / "secret").string() + "; ls " + CUGRADE_SOURCE_ROOT +
                  "; cat /etc/passwd /etc/hostname; ls /root /home /var; echo end"));
    CHECK(result.stdout_text.find("course secret") == std::string::npos);
    CHECK(result.stdout_text.find("ARCHITECTURE.md") == std::string::npos);
    CHECK(result.stdout_text.find("root:") == std::string::npos);
    CHECK(result.stdout_text.find("end") != std::string::npos);  // the script did run to its end
    CHECK(result.stderr_text.find("No such file") != std::string::npos);
  }

  SUBCASE("it cannot write outside its folder: read-only mounts, the system, the root") {
    ProcessRequest request = sealed_shell(
        work, "echo x > " + (outside / "planted").string() + "; echo x > /usr/planted; echo x > /planted; "
              "echo x > /dev/shm/planted; echo x > /tmp/private && echo private-ok");
    fs::permissions(outside, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    request.sandbox->mounts.push_back({outside, {}, false});
    const ProcessResult result = runner->run(request);
    REQUIRE_MESSAGE(result.started, result.launch_error);
    CHECK_FALSE(fs::exists(outside / "planted"));
    CHECK_FALSE(fs::exists("/usr/planted"));
    CHECK_FALSE(fs::exists("/planted"));
    CHECK(result.stdout_text.find("private-ok") != std::string::npos);
    CHECK(result.stderr_text.find("Read-only file system") != std::string::npos);
  }

  SUBCASE("it sees only the request's environment, not ours") {
    ::setenv("CUGRADE_TEST_PARENT_ONLY", "leaked", 1);
    ProcessRequest request = sealed_shell(work, "env");
    request.environment = {{"PATH", "/usr/bin:/bin"}, {"CHOSEN", "yes"}};
    const ProcessResult result = runner->run(request);
    ::unsetenv("CUGRADE_TEST_PARENT_ONLY");
    CHECK(result.stdout_text.find("CHOSEN=yes") != std::string::npos);
    CHECK(result.stdout_text.find("leaked") == std::string::npos);
    CHECK(result.stdout_text.find("CUGRADE_TEST_PARENT_ONLY") == std::string::npos);
  }

  SUBCASE("its /proc holds only its own processes, not ours") {
    const ProcessResult result = runner->run(sealed_shell(work, "ls /proc | grep -c '^[0-9]'; cat /proc/*/cmdline | tr '\\0' ' '"));
    std::istringstream lines(result.stdout_text);
    int processes = 0;
    lines >> processes;
    CHECK(processes >= 1);
    CHECK(processes <= 6);  // bwrap's init, the limits, the shell, ls/cat
    const std::string own = read_text("/proc/self/cmdline");
    CHECK(result.stdout_text.find(own.substr(0, own.find('\0'))) == std::string::npos);
    CHECK(result.stdout_text.find("doctest") == std::string::npos);
  }

  SUBCASE("it has no network, not even our loopback") {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 1) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    const std::string port = std::to_string(ntohs(address.sin_port));
    const std::string probe = "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + "' && echo host-reached; "
                              "bash -c 'exec 3<>/dev/tcp/1.1.1.1/53' && echo internet-reached; echo tried";
    const ProcessResult sealed = runner->run(sealed_shell(work, probe));
    CHECK(sealed.stdout_text.find("tried") != std::string::npos);
    CHECK(sealed.stdout_text.find("host-reached") == std::string::npos);
    CHECK(sealed.stdout_text.find("internet-reached") == std::string::npos);
    // The same probe unsealed reaches our listener: the check above can fail.
    ProcessRequest plain = sealed_shell(work, probe);
    plain.sandbox.reset();
    plain.timeout_s = 3.0;
    CHECK(runner->run(plain).stdout_text.find("host-reached") != std::string::npos);
    ::close(listener);
  }

  SUBCASE("a double-forked setsid daemon does not outlive the step") {
    // It writes from 1 s on, for about 6 s, then ends by itself (the unsealed one must end too).
    // The step waits 0.5 s so that setsid has happened before its end (else the group kill of an
    // unsealed run may catch the daemon still in the group).
    const std::string daemon = "(setsid sh -c 'sleep 1; for i in 1 2 3 4 5 6 7 8 9 10; do echo x >> " +
                               (work / "marker").string() + "; sleep 0.5; done' </dev/null >/dev/null 2>&1 &) ; sleep 0.5; exit 0";
    const ProcessResult sealed = runner->run(sealed_shell(work, daemon));
    CHECK(sealed.exit_code == 0);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    CHECK_FALSE(fs::exists(work / "marker"));
    // Unsealed, the same daemon leaves the process group and writes: the check above can fail.
    ProcessRequest plain = sealed_shell(work, daemon);
    plain.sandbox.reset();
    runner->run(plain);
    bool written = false;
    for (int i = 0; i < 100 && !written; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      written = fs::exists(work / "marker");
    }
    CHECK(written);
    std::this_thread::sleep_for(std::chrono::seconds(6));  // let it end before its folder goes
  }

  SUBCASE("processes are bounded inside the step, and a fork bomb leaves us standing") {
    ProcessRequest count = sealed_shell(work, "n=0; for i in $(seq 60); do sleep 5 & n=$((n+1)); echo $n > started; done");
    count.sandbox->max_processes = 16;
    count.timeout_s = 3.0;
    runner->run(count);
    const int started = std::atoi(read_text(work / "started").c_str());
    CHECK(started > 0);
    CHECK(started < 16);
    // Only when the bound held (a fork bomb without it would take the machine's pids).
    REQUIRE(started < 16);
    ProcessRequest bomb = sealed_shell(work, "b() { b | b & }; b");
    bomb.sandbox->max_processes = 32;
    bomb.timeout_s = 2.0;
    const auto begin = std::chrono::steady_clock::now();
    const ProcessResult result = runner->run(bomb);
    CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(10));
    CHECK(result.started);
    ProcessRequest after;
    after.argv = {"sh", "-c", "echo still here"};
    CHECK(runner->run(after).stdout_text == "still here\n");
  }

  SUBCASE("a file-size bomb stops at the limit") {
    ProcessRequest request = sealed_shell(work, "head -c 5000000 /dev/zero > big");
    request.sandbox->file_bytes = 1 << 20;
    const ProcessResult result = runner->run(request);
    CHECK(fs::file_size(work / "big") == (1u << 20));
    CHECK((result.signal.has_value() || result.exit_code != 0));
  }

  SUBCASE("a CPU-time limit ends a spinning step") {
    ProcessRequest request = sealed_shell(work, "while :; do :; done");
    request.sandbox->cpu_seconds = 1;
    request.timeout_s = 30.0;
    const ProcessResult result = runner->run(request);
    CHECK_FALSE(result.timed_out);
    CHECK(result.signal.has_value());
    CHECK(result.seconds < 15.0);
  }

  SUBCASE("a timeout ends the whole step") {
    ProcessRequest request = sealed_shell(work, "sleep 30 & sleep 30");
    request.timeout_s = 0.5;
    const ProcessResult result = runner->run(request);
    CHECK(result.timed_out);
    CHECK(result.seconds < 5.0);
  }

  fs::remove_all(work);
  fs::remove_all(outside);
}

TEST_CASE("process::sandboxed run (toolchains)") {
  if (sandbox_missing()) return;
  auto runner = make_process_runner();
  const fs::path work = make_temp_dir();
  std::ofstream(work / "hello.cpp") << "#include <iostream>\nint main() { std::cout << \"hello\\n\"; }\n";
  std::ofstream(work / "hello.cu") << "__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n";

  SUBCASE("g++ compiles and links inside, and the program runs") {
    ProcessRequest request = sealed_shell(work, "g++ -o hello hello.cpp && ./hello");
    request.timeout_s = 120.0;
    const ProcessResult result = runner->run(request);
    CHECK_MESSAGE(result.exit_code == 0, result.stderr_text);
    CHECK(result.stdout_text == "hello\n");
  }
  SUBCASE("nvcc compiles inside (where it is installed)") {
    const fs::path nvcc = "/usr/local/cuda/bin/nvcc";
    if (!fs::exists(nvcc)) {
      MESSAGE("skipped: no nvcc at " << nvcc);
    } else {
      ProcessRequest request = sealed_shell(work, nvcc.string() + " -arch=sm_75 -o hello_cu hello.cu");
      request.timeout_s = 300.0;
      const ProcessResult result = runner->run(request);
      CHECK_MESSAGE(result.exit_code == 0, result.stderr_text);
      CHECK(fs::exists(work / "hello_cu"));
    }
  }
  fs::remove_all(work);
}
