// sandbox_status(): whether bubblewrap really works here (a trivial sealed step is run), and when
// it does not, why and what to do.
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "process/sandbox.hpp"

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// The first line of a file ("" when unreadable): for /proc/sys switches.
std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// What to do when bwrap is installed but the trial step failed.
std::string fix_for(const SandboxHost& host) {
  if (host.root)
    return "bwrap could not make its namespaces as root; in a container, start it with --privileged "
           "(or --cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined)";
  if (first_line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1")
    return "AppArmor forbids user namespaces to unprivileged programs (Ubuntu 23.10 and later): "
           "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or give bwrap an AppArmor "
           "profile that allows userns, see docs/security.md)";
  if (first_line("/proc/sys/kernel/unprivileged_userns_clone") == "0")
    return "the kernel forbids user namespaces to unprivileged users: sudo sysctl -w kernel.unprivileged_userns_clone=1";
  if (first_line("/proc/sys/user/max_user_namespaces") == "0")
    return "user namespaces are switched off: sudo sysctl -w user.max_user_namespaces=15000";
  return "run `bwrap --unshare-all --ro-bind / / true` to see bwrap's own complaint; see docs/security.md";
}

/// The first line of what bwrap printed, or the launch error.
std::string complaint(const ProcessResult& result) {
  std::string text = !result.launch_error.empty() ? result.launch_error
                     : !result.stderr_text.empty() ? result.stderr_text
                     : result.timed_out            ? std::string("the trial step did not end within 20 s")
                                                   : "the trial step exited with code " + std::to_string(result.exit_code);
  if (const auto end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
}

SandboxStatus probe_status() {
  if (const char* off = std::getenv("CUGRADE_UNSEALED"); off && *off && std::string(off) != "0")
    return {false, "turned off by CUGRADE_UNSEALED", "unset CUGRADE_UNSEALED to seal the student's code again"};
  const SandboxHost& host = sandbox_host();
  if (host.bwrap.empty())
    return {false, "bubblewrap (bwrap) is not installed",
            "sudo apt-get install bubblewrap (scripts/install-deps.sh installs it)"};
  if (host.prlimit.empty() || (host.root && host.setpriv.empty()))
    return {false, "util-linux's prlimit or setpriv is missing", "sudo apt-get install util-linux"};

  // A trial step as real ones are made: a writable folder of its own, a file written there.
  std::string pattern = (fs::temp_directory_path() / "cugrade-sandbox-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return {false, "cannot create a folder for the trial step in " + fs::temp_directory_path().string(),
            "make the temporary folder writable (or set TMPDIR)"};
  const fs::path dir = pattern;
  ProcessRequest trial;
  trial.argv = {"sh", "-c", "echo sealed > probe"};
  trial.working_dir = dir;
  trial.timeout_s = 20.0;
  trial.sandbox = SandboxSpec{};
  trial.sandbox->mounts.push_back({dir, {}, true});
  const ProcessResult result = make_process_runner()->run(trial);
  std::ifstream in(dir / "probe");
  std::string written;
  std::getline(in, written);
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (!result.started || result.exit_code != 0 || written != "sealed")
    return {false, "bwrap does not work here (" + complaint(result) + ")", fix_for(host)};

  ProcessRequest version;
  version.argv = {host.bwrap.string(), "--version"};
  version.timeout_s = 10.0;
  std::string name = make_process_runner()->run(version).stdout_text;
  if (const auto end = name.find('\n'); end != std::string::npos) name.resize(end);
  if (name.empty()) name = "bubblewrap";
  return {true,
          name + (host.root ? " (each step runs as a user of its own, without privileges)"
                            : " (each step runs in a user namespace of its own)"),
          ""};
}

}  // namespace

const SandboxStatus& sandbox_status() {
  static const SandboxStatus status = probe_status();
  return status;
}

std::string unsealed_note(const SandboxStatus& status) {
  return "not sealed: " + status.reason +
         "; the student's code ran with the grader's rights and could read or change files outside its own folder"
         " (fix: " + status.fix + ")";
}

}  // namespace cugrade
