// The bwrap command line as a pure function of a hand-written host, and what sandboxed_argv()
// refuses before anything runs.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "process/sandbox.hpp"

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

using Words = std::vector<std::string>;

/// A host like a merged-/usr Debian with util-linux and one GPU.
SandboxHost test_host(bool root) {
  SandboxHost host;
  host.bwrap = "/usr/bin/bwrap";
  host.prlimit = "/usr/bin/prlimit";
  host.setpriv = root ? "/usr/bin/setpriv" : "";
  host.root = root;
  host.read_only = {"/usr", "/etc/ld.so.cache", "/opt/cuda"};
  host.links = {{"/bin", "usr/bin"}, {"/lib64", "usr/lib64"}};
  host.gpu_devices = {"/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidiactl"};
  host.gpu_sys = {"/sys/bus", "/sys/devices"};
  host.gpu_groups = {44};
  return host;
}

/// Where `words` (in a row) first occur in `cmd`; cmd.size() when they do not.
std::size_t find(const Words& cmd, const Words& words) {
  for (std::size_t i = 0; i + words.size() <= cmd.size(); ++i)
    if (std::equal(words.begin(), words.end(), cmd.begin() + static_cast<std::ptrdiff_t>(i))) return i;
  return cmd.size();
}

bool has(const Words& cmd, const Words& words) { return find(cmd, words) < cmd.size(); }

/// The bwrap options: everything before the first "--".
Words bwrap_part(const Words& cmd) { return Words(cmd.begin(), cmd.begin() + static_cast<std::ptrdiff_t>(find(cmd, {"--"}))); }

SandboxSpec work_spec() {
  SandboxSpec spec;
  spec.mounts = {{"/tmp/cugrade-x/run", {}, true}, {"/tmp/cugrade-x/inputs", {}, false}};
  return spec;
}

fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "cugrade-test-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("process::bwrap_command") {
  const std::map<std::string, std::string> env{{"PATH", "/usr/bin"}, {"LANG", "C"}};

  SUBCASE("unprivileged: every namespace, a private /proc, /dev and /tmp, the system read-only") {
    const Words cmd = bwrap_command("/tmp/cugrade-x/run/runner", {"job.json"}, work_spec(), env,
                                    "/tmp/cugrade-x/run", test_host(false), std::nullopt);
    const Words bwrap = bwrap_part(cmd);
    CHECK(cmd.front() == "/usr/bin/bwrap");
    for (const char* option : {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
                               "--die-with-parent", "--new-session", "--clearenv"})
      CHECK_MESSAGE(has(bwrap, {option}), option);
    CHECK(has(bwrap, {"--proc", "/proc"}));
    CHECK(has(bwrap, {"--dev", "/dev"}));
    CHECK(has(bwrap, {"--tmpfs", "/tmp"}));
    CHECK(has(bwrap, {"--ro-bind", "/usr", "/usr"}));
    CHECK(has(bwrap, {"--ro-bind", "/opt/cuda", "/opt/cuda"}));
    CHECK(has(bwrap, {"--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"}));
    CHECK(has(bwrap, {"--symlink", "usr/bin", "/bin"}));
    CHECK(has(bwrap, {"--remount-ro", "/"}));
    CHECK_FALSE(has(bwrap, {"--ro-bind", "/etc", "/etc"}));
    CHECK_FALSE(has(bwrap, {"--ro-bind", "/", "/"}));
    CHECK_FALSE(has(bwrap, {"--bind", "/", "/"}));
    CHECK_FALSE(has(cmd, {"/usr/bin/setpriv"}));
    CHECK_FALSE(has(bwrap, {"--cap-add", "CAP_SETUID"}));
  }

  SUBCASE("the step's folders: writable ones bound, the others read-only, their parents made open") {
    const Words cmd = bwrap_command("/tmp/cugrade-x/run/runner", {}, work_spec(), env, "/tmp/cugrade-x/run",
                                    test_host(false), std::nullopt);
    CHECK(has(cmd, {"--bind", "/tmp/cugrade-x/run", "/tmp/cugrade-x/run"}));
    CHECK(has(cmd, {"--ro-bind", "/tmp/cugrade-x/inputs", "/tmp/cugrade-x/inputs"}));
    CHECK(has(cmd, {"--perms", "0755", "--dir", "/tmp/cugrade-x"}));
    CHECK(find(cmd, {"--dir", "/tmp/cugrade-x"}) < find(cmd, {"--bind", "/tmp/cugrade-x/run"}));
    CHECK_FALSE(has(cmd, {"--dir", "/tmp"}));  // the private /tmp is already there

    SandboxSpec nested;
    nested.mounts = {{"/home/t/work/sub", {}, false}, {"/home/t/work", "/work", true}};
    const Words moved = bwrap_command("/work/a.out", {}, nested, env, "/work", test_host(false), std::nullopt);
    CHECK(has(moved, {"--bind", "/home/t/work", "/work"}));
    CHECK(find(moved, {"--bind", "/home/t/work", "/work"}) < find(moved, {"--ro-bind", "/home/t/work/sub"}));
    CHECK(has(moved, {"--dir", "/home"}));
    CHECK(has(moved, {"--dir", "/home/t"}));
    CHECK(has(moved, {"--dir", "/home/t/work"}));
  }

  SUBCASE("only the request's environment, with /tmp for temporary files, and its folder") {
    const Words cmd = bwrap_command("/usr/bin/true", {}, work_spec(), env, "/tmp/cugrade-x/run", test_host(false),
                                    std::nullopt);
    const Words bwrap = bwrap_part(cmd);
    CHECK(find(bwrap, {"--clearenv"}) < find(bwrap, {"--setenv"}));
    CHECK(std::count(bwrap.begin(), bwrap.end(), "--setenv") == 4);
    CHECK(has(bwrap, {"--setenv", "PATH", "/usr/bin"}));
    CHECK(has(bwrap, {"--setenv", "LANG", "C"}));
    CHECK(has(bwrap, {"--setenv", "TMPDIR", "/tmp"}));
    CHECK(has(bwrap, {"--setenv", "HOME", "/tmp"}));
    CHECK(has(bwrap, {"--chdir", "/tmp/cugrade-x/run"}));
  }

  SUBCASE("limits are set inside, then the command with its arguments as given") {
    SandboxSpec spec = work_spec();
    spec.max_processes = 64;
    spec.max_open_files = 100;
    spec.file_bytes = 1000;
    const Words cmd = bwrap_command("/tmp/cugrade-x/run/runner", {"a b", "$(x)"}, spec, env, {}, test_host(false),
                                    std::nullopt);
    const std::size_t limits = find(cmd, {"/usr/bin/prlimit"});
    REQUIRE(limits < cmd.size());
    CHECK(cmd[limits - 1] == "--");
    CHECK(has(cmd, {"--nproc=64:64"}));
    CHECK(has(cmd, {"--nofile=100:100"}));
    CHECK(has(cmd, {"--fsize=1000:1000"}));
    CHECK(has(cmd, {"--core=0:0"}));
    CHECK_FALSE(has(cmd, {"--cpu=0:0"}));
    CHECK(Words(cmd.end() - 4, cmd.end()) == Words{"--", "/tmp/cugrade-x/run/runner", "a b", "$(x)"});
    CHECK(has(cmd, {"--chdir", "/tmp"}));  // no folder given: the private /tmp

    spec.cpu_seconds = 5;
    spec.address_space_bytes = 4096;
    const Words limited = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(false), std::nullopt);
    CHECK(has(limited, {"--cpu=5:5"}));
    CHECK(has(limited, {"--as=4096:4096"}));
  }

  SUBCASE("the GPU's nodes and the /sys the driver reads only when asked for") {
    SandboxSpec spec = work_spec();
    const Words plain = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(false), std::nullopt);
    CHECK_FALSE(has(plain, {"--dev-bind", "/dev/nvidiactl", "/dev/nvidiactl"}));
    CHECK_FALSE(has(plain, {"--ro-bind", "/sys/bus", "/sys/bus"}));
    spec.gpu = true;
    const Words gpu = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(false), std::nullopt);
    for (const char* node : {"/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm"})
      CHECK_MESSAGE(has(gpu, {"--dev-bind", node, node}), node);
    CHECK(has(gpu, {"--ro-bind", "/sys/bus", "/sys/bus"}));
    CHECK(find(gpu, {"--dev-bind", "/dev/nvidiactl"}) > find(gpu, {"--dev", "/dev"}));
    CHECK(find(gpu, {"--dev-bind", "/dev/nvidiactl"}) < find(gpu, {"--remount-ro", "/dev"}));
  }

  SUBCASE("a writable /dev/shm only when asked for (a profiler and its target), after /dev is made") {
    SandboxSpec spec = work_spec();
    const Words plain = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(false), std::nullopt);
    CHECK_FALSE(has(plain, {"--tmpfs", "/dev/shm"}));
    spec.shared_memory = true;
    const Words shm = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(false), std::nullopt);
    REQUIRE(has(shm, {"--tmpfs", "/dev/shm"}));
    CHECK(find(shm, {"--tmpfs", "/dev/shm"}) > find(shm, {"--dev", "/dev"}));
    CHECK(find(shm, {"--tmpfs", "/dev/shm"}) < find(shm, {"--remount-ro", "/dev"}));
  }

  SUBCASE("as root: bwrap privileged, the step its own user without capabilities") {
    const StepUser user{0x70010002u, 0x70010002u, {44}};
    SandboxSpec spec = work_spec();
    const Words cmd = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(true), user);
    const Words bwrap = bwrap_part(cmd);
    CHECK_FALSE(has(bwrap, {"--unshare-user"}));
    CHECK(has(bwrap, {"--unshare-pid"}));
    CHECK(has(bwrap, {"--cap-add", "CAP_SETUID"}));
    const std::size_t drop = find(cmd, {"/usr/bin/setpriv"});
    REQUIRE(drop < cmd.size());
    CHECK(drop < find(cmd, {"/usr/bin/prlimit"}));
    CHECK(has(cmd, {"--reuid=" + std::to_string(0x70010002u)}));
    CHECK(has(cmd, {"--regid=" + std::to_string(0x70010002u)}));
    CHECK(has(cmd, {"--clear-groups"}));  // no GPU: not even the GPU's group
    CHECK(has(cmd, {"--bounding-set=-all"}));
    CHECK(has(cmd, {"--no-new-privs"}));
    spec.gpu = true;
    const Words gpu = bwrap_command("/usr/bin/true", {}, spec, env, {}, test_host(true), user);
    CHECK(has(gpu, {"--groups=44"}));
  }

  SUBCASE("cugrade's own tree under a system folder is covered") {
    SandboxHost host = test_host(false);
    host.hidden = {"/usr/local/cugrade"};
    const Words cmd = bwrap_command("/usr/bin/true", {}, work_spec(), env, {}, host, std::nullopt);
    CHECK(find(cmd, {"--ro-bind", "/usr", "/usr"}) < find(cmd, {"--tmpfs", "/usr/local/cugrade"}));
    CHECK(has(cmd, {"--remount-ro", "/usr/local/cugrade"}));
  }

  SUBCASE("a file inside a covered folder: the folders leading to it made open (an installed runner library)") {
    SandboxHost host = test_host(true);
    host.hidden = {"/usr/lib/cugrade/cpu-runners"};
    SandboxSpec spec;
    spec.mounts = {{"/usr/lib/cugrade/cpu-runners/vecadd/libcugrade_cpu_runner_vecadd.a", {}, false}};
    const Words cmd = bwrap_command("/usr/bin/true", {}, spec, env, {}, host, StepUser{70000, 70000, {}});
    CHECK(has(cmd, {"--perms", "0755", "--dir", "/usr/lib/cugrade/cpu-runners/vecadd"}));
    CHECK(find(cmd, {"--tmpfs", "/usr/lib/cugrade/cpu-runners"}) < find(cmd, {"--dir", "/usr/lib/cugrade/cpu-runners/vecadd"}));
    CHECK(find(cmd, {"--dir", "/usr/lib/cugrade/cpu-runners/vecadd"}) <
          find(cmd, {"--ro-bind", "/usr/lib/cugrade/cpu-runners/vecadd/libcugrade_cpu_runner_vecadd.a"}));
    CHECK_FALSE(has(cmd, {"--dir", "/usr/lib/cugrade/cpu-runners"}));  // the tmpfs itself
    CHECK_FALSE(has(cmd, {"--dir", "/usr/lib/cugrade"}));               // the system's, shown as it is
  }
}

TEST_CASE("process::sandbox_host") {
  // Separate debug information is covered where the system has it (libc6-dbg's, read by the CPU
  // runner's line lookup otherwise).
  std::error_code ec;
  if (!std::filesystem::is_directory("/usr/lib/debug", ec)) return;
  CHECK_FALSE(shown_by_system("/usr/lib/debug/.build-id"));
  CHECK(shown_by_system("/usr/lib"));
}

TEST_CASE("process::next_step_user") {
  const SandboxHost host = test_host(true);
  const StepUser a = next_step_user(host);
  const StepUser b = next_step_user(host);
  CHECK(a.uid != b.uid);
  CHECK(a.uid == a.gid);
  CHECK(a.uid >= 0x70000000u);
  CHECK(a.uid <= 0x7fffffffu);
  CHECK(a.groups == std::vector<std::uint32_t>{44});
}

TEST_CASE("process::sandboxed_argv") {
  if (sandbox_host().bwrap.empty()) {
    MESSAGE("skipped: bubblewrap is not installed");
    return;
  }
  const fs::path dir = make_temp_dir();
  ProcessRequest request;
  request.argv = {"true"};
  request.sandbox = SandboxSpec{};
  request.sandbox->mounts.push_back({dir, {}, true});

  SUBCASE("argv[0] is resolved on the request's PATH; the folder is the inside one") {
    request.working_dir = dir;
    auto argv = sandboxed_argv(request);
    REQUIRE(argv);
    CHECK(argv->front() == sandbox_host().bwrap.string());
    CHECK(fs::path(argv->back()).is_absolute());
    CHECK(fs::path(argv->back()).filename() == "true");
    CHECK(has(*argv, {"--chdir", dir.string()}));
  }
  SUBCASE("a mount whose source is missing is refused before anything runs") {
    request.sandbox->mounts.push_back({dir / "missing", {}, false});
    auto argv = sandboxed_argv(request);
    REQUIRE_FALSE(argv);
    CHECK(argv.error().message.find("does not exist") != std::string::npos);
  }
  SUBCASE("a writable mount that is a symbolic link is refused: bwrap would bind what it points to") {
    const fs::path elsewhere = make_temp_dir();
    fs::create_directory_symlink(elsewhere, dir / "reverse");
    request.sandbox->mounts.push_back({dir / "reverse", {}, true});
    auto argv = sandboxed_argv(request);
    REQUIRE_FALSE(argv);
    CHECK(argv.error().message.find("is a symbolic link") != std::string::npos);
    fs::remove_all(elsewhere);
  }
  SUBCASE("a program the step could not see is refused") {
    const fs::path elsewhere = make_temp_dir();
    std::ofstream(elsewhere / "tool") << "#!/bin/sh\n";
    fs::permissions(elsewhere / "tool", fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(elsewhere, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    request.argv = {(elsewhere / "tool").string()};
    auto argv = sandboxed_argv(request);
    REQUIRE_FALSE(argv);
    CHECK(argv.error().message.find("not visible inside the sandbox") != std::string::npos);
    request.sandbox->mounts.push_back({elsewhere, {}, false});
    CHECK(sandboxed_argv(request));
    fs::remove_all(elsewhere);
  }
  SUBCASE("a working folder outside the mounts is refused") {
    request.working_dir = fs::temp_directory_path();
    auto argv = sandboxed_argv(request);
    REQUIRE_FALSE(argv);
    CHECK(argv.error().message.find("working folder") != std::string::npos);
  }
  SUBCASE("as root, writable folders go to the step's user and what it reads must be readable") {
    if (::geteuid() != 0) {
      MESSAGE("skipped: not root");
    } else {
      const fs::path inputs = make_temp_dir();  // mkdtemp: 0700
      request.sandbox->mounts.push_back({inputs, {}, false});
      auto refused = sandboxed_argv(request);
      REQUIRE_FALSE(refused);
      CHECK(refused.error().message.find("umask 022") != std::string::npos);
      fs::permissions(inputs, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
      std::ofstream(inputs / "a.bin") << "x";
      fs::permissions(inputs / "a.bin", fs::perms::owner_read | fs::perms::owner_write);
      CHECK_FALSE(sandboxed_argv(request));
      fs::permissions(inputs / "a.bin", fs::perms::others_read, fs::perm_options::add);
      auto argv = sandboxed_argv(request);
      REQUIRE(argv);
      struct stat st {};
      REQUIRE(::stat(dir.c_str(), &st) == 0);
      CHECK(st.st_uid >= 0x70000000u);
      CHECK(has(*argv, {"--reuid=" + std::to_string(st.st_uid)}));
      fs::remove_all(inputs);
    }
  }
  SUBCASE("no sandbox, no command line") {
    request.sandbox.reset();
    CHECK_FALSE(sandboxed_argv(request));
  }
  fs::remove_all(dir);
}

TEST_CASE("process::hand_over") {
  if (::geteuid() != 0) {
    MESSAGE("skipped: only root hands folders over (the tests do not run as root)");
    return;
  }
  const fs::path dir = make_temp_dir();
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "file") << "x";
  std::ofstream(dir / "linked") << "y";
  fs::create_hard_link(dir / "linked", dir / "linked2");
  fs::create_symlink("/etc/hostname", dir / "link");
  const StepUser user{0x7ffffff0u, 0x7ffffff0u, {}};
  REQUIRE(hand_over(dir, user));
  auto owner = [](const fs::path& p) {
    struct stat st {};
    REQUIRE(::lstat(p.c_str(), &st) == 0);
    return st.st_uid;
  };
  CHECK(owner(dir) == user.uid);
  CHECK(owner(dir / "sub") == user.uid);
  CHECK(owner(dir / "sub" / "file") == user.uid);
  CHECK(owner(dir / "linked") == 0);  // a second name: could be anyone's file, left alone
  CHECK(owner(dir / "link") == 0);
  CHECK(owner("/etc/hostname") == 0);
  fs::remove_all(dir);
}
