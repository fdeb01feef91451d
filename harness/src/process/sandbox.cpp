// The bwrap command line of one sandboxed step, the host facts it depends on, and the hand-over
// of a step's writable folders to its own user when cugrade runs as root. Why each option is
// there: docs/security.md, "Containment".
#include "process/sandbox.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string_view>
#include <system_error>

#include "core/locations.hpp"
#include "core/program_path.hpp"

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// The private /tmp (also TMPDIR and HOME inside): enough for nvcc's intermediate files, small
/// enough that a step filling it cannot take the machine's memory (tmpfs lives in RAM).
constexpr std::uint64_t tmp_bytes = std::uint64_t{512} << 20;
/// The private /dev/shm of a step that asks for one (SandboxSpec::shared_memory).
constexpr std::uint64_t shm_bytes = std::uint64_t{256} << 20;

/// True when `path` is `folder` or lies inside it (both absolute and normal).
bool is_within(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty()) continue;  // the trailing "" of "/usr/"
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

bool is_within_any(const fs::path& path, const std::vector<fs::path>& folders) {
  return std::any_of(folders.begin(), folders.end(), [&](const fs::path& f) { return is_within(path, f); });
}

/// Groups of GPU nodes that others may not open (0660 root:video): the step needs them.
std::vector<std::uint32_t> nvidia_groups(const std::vector<fs::path>& devices) {
  std::set<std::uint32_t> groups;
  for (const auto& device : devices) {
    struct stat st {};
    if (::stat(device.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && (st.st_mode & S_IRWXO) != (S_IROTH | S_IWOTH) &&
        (st.st_mode & S_IRWXO) != S_IRWXO)
      groups.insert(st.st_gid);
  }
  return {groups.begin(), groups.end()};
}

SandboxHost probe_host() {
  SandboxHost host;
  const char* path = std::getenv("PATH");
  const std::string_view path_list = path ? path : "";
  host.bwrap = find_program("bwrap", path_list);
  host.prlimit = find_program("prlimit", path_list);
  host.root = ::geteuid() == 0;
  if (host.root) host.setpriv = find_program("setpriv", path_list);

  // The system, read-only. Merged-/usr systems have /bin, /lib, ... as links into /usr.
  host.read_only.push_back("/usr");
  std::error_code ec;
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (fs::is_symlink(top, ec)) {
      host.links.emplace_back(top, fs::read_symlink(top, ec));
    } else if (fs::is_directory(top, ec)) {
      host.read_only.push_back(top);
    }
  }
  // Of /etc only what the dynamic loader and the compilers' alternatives need: not the host's
  // accounts, keys or configuration.
  for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"})
    if (fs::exists(file, ec)) host.read_only.push_back(file);
  // The CUDA toolkit where it lies outside /usr (/usr/local/cuda -> /opt/cuda-13.0).
  const Locations where = default_locations();
  std::vector<fs::path> toolkits{"/usr/local/cuda"};
  for (const char* name : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* value = std::getenv(name); value && *value == '/') toolkits.emplace_back(value);
  // nvcc's toolkit only where nvcc is: a configured path that does not exist (CUGRADE_NVCC=
  // /nonexistent/nvcc) must not make "/" a toolkit, which would show the whole host.
  if (where.nvcc.is_absolute() && fs::is_regular_file(where.nvcc, ec))
    toolkits.push_back(fs::canonical(where.nvcc, ec).parent_path().parent_path());
  for (const auto& toolkit : toolkits) {
    const fs::path real = fs::canonical(toolkit, ec);
    if (!ec && real != "/" && real.has_relative_path() && !is_within_any(real, host.read_only))
      host.read_only.push_back(real);
  }
  // cugrade's own tree (sources, references, build) must not show through /usr or a toolkit.
  for (const fs::path& own : {where.root, where.runner_dir, where.cpu_runner_dir}) {
    const fs::path real = fs::weakly_canonical(own, ec);
    // Under /tmp it shows nowhere: the step's /tmp is a private, empty one (and hiding it there
    // would remount a folder that the private /tmp has covered).
    if (is_within_any(real, {fs::path("/tmp")})) continue;
    if (!ec && !real.empty() && is_within_any(real, host.read_only) &&
        std::find(host.hidden.begin(), host.hidden.end(), real) == host.hidden.end())
      host.hidden.push_back(real);
  }

  // The system libraries' separate debug information (libc6-dbg) is no step's business, and the
  // CPU runner's line lookup at a fault (libbacktrace reads every loaded library's) would spend a
  // quarter of a second reading libc's (docs/measurements.md).
  if (fs::is_directory("/usr/lib/debug", ec) && !fs::is_symlink("/usr/lib/debug", ec))
    host.hidden.emplace_back("/usr/lib/debug");
  host.gpu_devices = nvidia_devices();
  host.gpu_groups = nvidia_groups(host.gpu_devices);
  // What the CUDA driver reads of /sys: PCI devices and their links (Flatpak's set) and the
  // NVIDIA modules' parameters.
  for (const char* dir : {"/sys/bus", "/sys/class", "/sys/dev", "/sys/devices", "/sys/module/nvidia",
                          "/sys/module/nvidia_uvm"})
    if (fs::exists(dir, ec)) host.gpu_sys.emplace_back(dir);
  return host;
}

/// The executable argv[0] names: a path (relative to our folder), or a name on `environment`'s PATH.
Result<fs::path> resolve(const std::string& name, const std::map<std::string, std::string>& environment) {
  std::error_code ec;
  if (name.find('/') != std::string::npos) {
    fs::path path = fs::absolute(name, ec).lexically_normal();
    if (ec || !fs::is_regular_file(path, ec)) return fail(name + ": no such file");
    return path;
  }
  const auto it = environment.find("PATH");
  std::string_view rest = it == environment.end() ? std::string_view("/usr/bin:/bin") : std::string_view(it->second);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    const fs::path candidate = fs::path(dir) / name;
    if (!dir.empty() && dir.front() == '/' && fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate.lexically_normal();
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return fail(name + ": not found on PATH");
}

/// `path` as the step sees it: moved by the first mount holding it (target differs from source).
fs::path inside_path(const fs::path& path, const SandboxSpec& spec) {
  for (const auto& mount : spec.mounts) {
    if (mount.target.empty() || !is_within(path, mount.source)) continue;
    return mount.target / path.lexically_relative(mount.source);
  }
  return path;
}

/// Fails when the step's user (another uid, as root) could not read all of `source`: a harness
/// running with umask 077 would otherwise hand the runner inputs it cannot open.
Result<void> readable_by_others(const fs::path& source) {
  auto check = [](const fs::path& path) -> Result<void> {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) return {};
    const mode_t needed = S_ISDIR(st.st_mode) ? (S_IROTH | S_IXOTH) : S_IROTH;
    if ((st.st_mode & needed) == needed) return {};
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return fail("sandbox: " + path.string() + " (mode " + mode +
                ") cannot be read by the step's own user; run cugrade with umask 022");
  };
  if (auto ok = check(source); !ok) return ok;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(source, ec))) return {};
  int seen = 0;
  for (auto it = fs::recursive_directory_iterator(source, ec); !ec && it != fs::recursive_directory_iterator() && ++seen < 10000;
       it.increment(ec))
    if (auto ok = check(it->path()); !ok) return ok;
  return {};
}

/// "N:N": an rlimit's soft and hard value, as prlimit takes them.
std::string both_limits(std::uint64_t value) { return std::to_string(value) + ":" + std::to_string(value); }

}  // namespace

const SandboxHost& sandbox_host() {
  static const SandboxHost host = probe_host();
  return host;
}

bool shown_by_system(const fs::path& path, const SandboxHost& host) {
  return is_within_any(path, host.read_only) && !is_within_any(path, host.hidden);
}

StepUser next_step_user(const SandboxHost& host) {
  static std::atomic<std::uint32_t> counter{0};
  const std::uint32_t id = 0x70000000u | ((static_cast<std::uint32_t>(::getpid()) & 0xfffu) << 16) |
                           (counter.fetch_add(1) & 0xffffu);
  return StepUser{id, id, host.gpu_groups};
}

std::vector<std::string> bwrap_command(const fs::path& executable, const std::vector<std::string>& args,
                                       const SandboxSpec& spec, const std::map<std::string, std::string>& environment,
                                       const fs::path& working_dir, const SandboxHost& host,
                                       const std::optional<StepUser>& user) {
  std::vector<std::string> cmd{host.bwrap.string()};
  auto add = [&cmd](std::initializer_list<std::string> words) { cmd.insert(cmd.end(), words); };
  // Namespaces. As root, bwrap runs privileged and the step becomes its own unprivileged user
  // (setpriv, below): a user namespace would map the step to root outside, which RLIMIT_NPROC
  // does not bind. Otherwise the user namespace is what lets bwrap work unprivileged.
  if (!user) add({"--unshare-user"});
  add({"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
       "--hostname", "sandbox", "--die-with-parent", "--new-session"});
  if (user) add({"--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"});  // for setpriv only; it drops all

  // The system, read-only, and nothing else of the host's files.
  for (const auto& [link, target] : host.links) add({"--symlink", target.string(), link.string()});
  for (const auto& dir : host.read_only) add({"--ro-bind", dir.string(), dir.string()});
  for (const auto& dir : host.hidden) add({"--tmpfs", dir.string()});
  add({"--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", std::to_string(tmp_bytes), "--tmpfs", "/tmp"});
  if (spec.shared_memory)  // its own mount: the read-only remount of /dev below leaves it writable
    add({"--perms", "1777", "--size", std::to_string(shm_bytes), "--tmpfs", "/dev/shm"});
  if (spec.gpu) {
    for (const auto& device : host.gpu_devices) add({"--dev-bind", device.string(), device.string()});
    for (const auto& dir : host.gpu_sys) add({"--ro-bind", dir.string(), dir.string()});
  }

  // The step's own folders, parents first. The folders leading to them are made here, open to
  // the step (bwrap would copy the host's modes, and a 0700 parent shuts a StepUser out).
  std::vector<SandboxMount> mounts = spec.mounts;
  for (auto& mount : mounts)
    if (mount.target.empty()) mount.target = mount.source;
  std::stable_sort(mounts.begin(), mounts.end(), [](const SandboxMount& a, const SandboxMount& b) {
    return std::distance(a.target.begin(), a.target.end()) < std::distance(b.target.begin(), b.target.end());
  });
  std::vector<fs::path> targets;
  for (const auto& mount : mounts) targets.push_back(mount.target);
  std::set<fs::path> made;
  for (const auto& mount : mounts) {
    for (fs::path parent = mount.target.parent_path(); parent != parent.root_path(); parent = parent.parent_path()) {
      // Inside a covered folder of cugrade's own (an installed cugrade's runners under /usr/lib)
      // the folders are made here too: bwrap would make them 0700, shut to the step's user.
      const bool covered = is_within_any(parent, host.hidden);
      if (std::find(host.hidden.begin(), host.hidden.end(), parent) != host.hidden.end()) break;  // its tmpfs
      if ((is_within_any(parent, host.read_only) && !covered) || is_within_any(parent, targets) || parent == "/tmp")
        break;
      made.insert(parent);
    }
  }
  for (const auto& dir : made) add({"--perms", "0755", "--dir", dir.string()});  // std::set: parents first
  for (const auto& mount : mounts)
    add({mount.writable ? "--bind" : "--ro-bind", mount.source.string(), mount.target.string()});

  // Nothing else is writable: not /, not /dev (/dev/shm), not the folders made above.
  for (const auto& dir : host.hidden) add({"--remount-ro", dir.string()});
  add({"--remount-ro", "/dev", "--remount-ro", "/"});

  // Only the request's environment; temporary files go to the private /tmp.
  add({"--clearenv"});
  std::map<std::string, std::string> env = environment;
  env["TMPDIR"] = "/tmp";
  env["HOME"] = "/tmp";
  for (const auto& [name, value] : env) add({"--setenv", name, value});
  add({"--chdir", working_dir.empty() ? std::string("/tmp") : working_dir.string(), "--"});

  // As root: the step's own user, no capabilities, no way back.
  if (user) {
    add({host.setpriv.string(), "--reuid=" + std::to_string(user->uid), "--regid=" + std::to_string(user->gid)});
    std::vector<std::uint32_t> groups = spec.gpu ? user->groups : std::vector<std::uint32_t>{};
    if (groups.empty()) {
      add({"--clear-groups"});
    } else {
      std::string list;
      for (const auto g : groups) list += (list.empty() ? "" : ",") + std::to_string(g);
      add({"--groups=" + list});
    }
    add({"--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"});
  }
  // Limits, set inside: RLIMIT_NPROC then counts this step's processes only (its own user, or
  // its own user namespace), not the grader's.
  add({host.prlimit.string(), "--core=0:0", "--nproc=" + both_limits(spec.max_processes),
       "--nofile=" + both_limits(spec.max_open_files), "--fsize=" + both_limits(spec.file_bytes)});
  if (spec.cpu_seconds > 0) add({"--cpu=" + both_limits(spec.cpu_seconds)});
  if (spec.address_space_bytes > 0) add({"--as=" + both_limits(spec.address_space_bytes)});
  add({"--", executable.string()});
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

Result<void> hand_over(const fs::path& folder, const StepUser& user) {
  auto give = [&user](const fs::path& path) -> Result<void> {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return {};  // gone meanwhile
    if (S_ISLNK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_nlink > 1)) return {};
    if (st.st_uid == user.uid && st.st_gid == user.gid) return {};
    if (::lchown(path.c_str(), user.uid, user.gid) != 0)
      return fail("cannot hand " + path.string() + " to the sandbox's user: " + std::strerror(errno));
    return {};
  };
  if (auto given = give(folder); !given) return given;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(folder, ec))) return {};
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (auto given = give(it->path()); !given) return given;
  if (ec) return fail("cannot hand " + folder.string() + " to the sandbox's user: " + ec.message());
  return {};
}

Result<std::vector<std::string>> sandboxed_argv(const ProcessRequest& request) {
  if (request.argv.empty()) return fail("no command given");
  if (!request.sandbox) return fail("the request has no sandbox");
  const SandboxSpec& spec = *request.sandbox;
  const SandboxHost& cached = sandbox_host();
  if (cached.bwrap.empty()) return fail("bubblewrap (bwrap) is not installed: sudo apt-get install bubblewrap");
  if (cached.prlimit.empty() || (cached.root && cached.setpriv.empty()))
    return fail("util-linux's prlimit or setpriv is missing: sudo apt-get install util-linux");
  SandboxHost host = cached;
  auto environment = request.environment.empty() ? scrubbed_environment() : request.environment;
  if (spec.gpu) {
    host.gpu_devices = nvidia_devices();  // nvidia-modprobe may have made more since
    restrict_to_visible_gpus(host.gpu_devices, environment);
  }

  Result<fs::path> executable = resolve(request.argv.front(), environment);
  if (!executable) return fail(executable.error().message);
  std::error_code ec;
  for (const auto& mount : spec.mounts) {
    if (!mount.source.is_absolute() || (!mount.target.empty() && !mount.target.is_absolute()))
      return fail("sandbox: a mount needs absolute paths, not " + mount.source.string());
    if (!fs::exists(mount.source, ec)) return fail("sandbox: " + mount.source.string() + " does not exist");
    // bwrap binds what a link points to: a step's folder that a step made a link would mount
    // a host folder, writable, in its place. (A read-only tool's folder may be a link:
    // /usr/local/cuda.)
    if (mount.writable && fs::is_symlink(fs::symlink_status(mount.source, ec)))
      return fail("sandbox: " + mount.source.string() + " is a symbolic link, not a folder of the step's");
  }
  // argv[0] must be there inside: in a mount, or in the system and not hidden.
  const fs::path real = fs::canonical(*executable, ec);
  const bool in_mount = std::any_of(spec.mounts.begin(), spec.mounts.end(), [&](const SandboxMount& m) {
    return is_within(*executable, m.source) || is_within(real, fs::weakly_canonical(m.source, ec));
  });
  if (!in_mount && !shown_by_system(real, host))
    return fail("sandbox: " + executable->string() + " is not visible inside the sandbox (only the system and the step's own folders are)");
  // A link the sandbox does not show to a program it does (a compiler's link outside its own
  // installation) runs by the program's own path.
  const bool named_shown = shown_by_system(*executable, host) ||
                           std::any_of(spec.mounts.begin(), spec.mounts.end(),
                                       [&](const SandboxMount& m) { return is_within(*executable, m.source); });
  const fs::path run = named_shown ? *executable : real;

  std::optional<StepUser> user;
  if (host.root) {
    user = next_step_user(host);
    for (const auto& mount : spec.mounts) {
      auto ready = mount.writable ? hand_over(mount.source, *user) : readable_by_others(mount.source);
      if (!ready) return fail(ready.error().message);
    }
  }
  fs::path working_dir;
  if (!request.working_dir.empty()) {
    working_dir = fs::absolute(request.working_dir, ec).lexically_normal();
    const bool visible = std::any_of(spec.mounts.begin(), spec.mounts.end(),
                                     [&](const SandboxMount& m) { return is_within(working_dir, m.source); });
    if (!visible) return fail("sandbox: the working folder " + working_dir.string() + " is not one of the step's mounts");
    working_dir = inside_path(working_dir, spec);
  }
  const std::vector<std::string> args(request.argv.begin() + 1, request.argv.end());
  return bwrap_command(inside_path(run, spec), args, spec, environment, working_dir, host, user);
}

}  // namespace cugrade
