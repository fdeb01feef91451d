#pragma once
// Containment of one untrusted step with bubblewrap (design.md §4, docs/security.md): the bwrap
// command line for a ProcessRequest whose `sandbox` is set, and whether the sandbox works here.
// The command line is built by a pure function of the request and of what the host offers
// (SandboxHost), so it can be tested without running anything.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Who a step runs as on the host when cugrade itself runs as root: a uid and gid of its own
/// that no account uses, and the groups that open the GPU's device nodes.
struct StepUser {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::vector<std::uint32_t> groups;  ///< supplementary groups (the NVIDIA nodes' when not world-usable)
};

/// What the host offers a sandbox: probed once by sandbox_host(); tests write their own.
struct SandboxHost {
  std::filesystem::path bwrap;    ///< bubblewrap; empty = not installed
  std::filesystem::path prlimit;  ///< util-linux prlimit: the step's rlimits, set inside
  std::filesystem::path setpriv;  ///< util-linux setpriv: drops root to the StepUser (root only)
  bool root = false;              ///< cugrade runs as root: privileged bwrap, then the StepUser
  /// Bound read-only at the same path: /usr, the /lib* that are real folders, the CUDA toolkit
  /// when it lies outside /usr, the few /etc files toolchains read.
  std::vector<std::filesystem::path> read_only;
  /// Symbolic links recreated inside as on the host (merged /usr: /bin -> usr/bin): link, target.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> links;
  /// Inside a read-only folder but not to be seen (cugrade's own tree installed under /usr):
  /// covered by an empty folder.
  std::vector<std::filesystem::path> hidden;
  std::vector<std::filesystem::path> gpu_devices;  ///< /dev/nvidia* nodes that exist
  std::vector<std::filesystem::path> gpu_sys;      ///< the /sys folders the CUDA driver reads
  std::vector<std::uint32_t> gpu_groups;           ///< groups of GPU nodes others cannot open
};

/// This machine's SandboxHost (probed on the first call, then cached).
const SandboxHost& sandbox_host();

/// Whether every sandbox sees `path` (absolute, its links resolved) through `host`'s system:
/// under one of its read-only folders and not hidden. A tool elsewhere needs a mount of its own.
bool shown_by_system(const std::filesystem::path& path, const SandboxHost& host = sandbox_host());

/// A fresh StepUser for one step (root only): uid = gid in 0x70000000…0x7fffffff, different
/// for every step of this process and, but for 1 in 4096, from other cugrade processes'.
StepUser next_step_user(const SandboxHost& host);

/// The bwrap command line, a pure function: `executable` (absolute) with `args` run inside a
/// sandbox made of `host`'s system, `spec`'s mounts and limits, `environment` only, in
/// `working_dir`; as `user` when given (host.root). Layout: bwrap [namespaces, /, /proc, /dev,
/// /tmp, system, mounts, GPU, env, chdir] -- [setpriv to user --] prlimit [limits] -- command.
std::vector<std::string> bwrap_command(const std::filesystem::path& executable,
                                       const std::vector<std::string>& args, const SandboxSpec& spec,
                                       const std::map<std::string, std::string>& environment,
                                       const std::filesystem::path& working_dir, const SandboxHost& host,
                                       const std::optional<StepUser>& user);

/// The whole command line for `request` (its `sandbox` set) on this machine: bwrap, its options,
/// `--`, the step's limits, then request.argv with argv[0] resolved on request.environment's
/// PATH (scrubbed_environment() when empty). The environment and working folder inside travel
/// as bwrap options; descriptors are left alone. When cugrade runs as root, also hands the
/// writable mounts to the step's fresh user (chown; read-only ones must be readable by others).
/// With the GPU on a machine of several, only the GPUs CUDA_VISIBLE_DEVICES names are bound, and
/// inside it names them by UUID (visible_gpus). Fails, saying why, when bwrap is missing, a
/// mount's source does not exist (or, writable, is a symbolic link), or argv[0] would not be
/// visible inside.
Result<std::vector<std::string>> sandboxed_argv(const ProcessRequest& request);

/// Gives `folder` and everything in it to `user` (not following links; files with other hard
/// links are left alone), so that a step running as `user` may write there.
Result<void> hand_over(const std::filesystem::path& folder, const StepUser& user);

/// One GPU as the NVIDIA driver lists it (/proc/driver/nvidia/gpus/<bus>/information).
struct NvidiaGpu {
  std::string bus;    ///< PCI location, "0000:1b:00.0"
  std::string model;  ///< "NVIDIA H200"
  std::string uuid;   ///< "GPU-8c3b..."
  int minor = -1;     ///< its node is /dev/nvidia<minor>
};

/// The NVIDIA device nodes that exist now (nvidia-modprobe creates some on first use), sorted.
std::vector<std::filesystem::path> nvidia_devices();

/// On a machine with several GPUs, keeps of `nodes` only those of the GPUs CUDA_VISIBLE_DEVICES
/// in `environment` names (a batch lane's), and names them there by UUID: CUDA finds them
/// whatever number it gives them inside. Leaves both as they are where it cannot tell.
void restrict_to_visible_gpus(std::vector<std::filesystem::path>& nodes,
                              std::map<std::string, std::string>& environment);

/// The GPUs the driver lists under `driver_dir`, in PCI order.
std::vector<NvidiaGpu> nvidia_gpus(const std::filesystem::path& driver_dir = "/proc/driver/nvidia/gpus");

/// The GPUs of `gpus` that CUDA_VISIBLE_DEVICES `visible` names (indices as CUDA counts them, or
/// UUIDs), for binding only theirs; nullopt when it cannot tell for sure (fewer than two GPUs,
/// MIG instances, indices over mixed models without CUDA_DEVICE_ORDER=PCI_BUS_ID): then the
/// step gets every GPU.
std::optional<std::vector<NvidiaGpu>> visible_gpus(const std::vector<NvidiaGpu>& gpus, const std::string& visible,
                                                   bool pci_order);

/// Whether untrusted steps can be sealed here.
struct SandboxStatus {
  bool works = false;
  std::string reason;   ///< works: how ("bubblewrap 0.8.0, steps run as their own user"); else why not
  std::string fix;      ///< empty when it works: what to do
};

/// Tried once per process (a trivial sandboxed step), then cached. CUGRADE_UNSEALED=1 turns the
/// sandbox off on purpose (debugging a runner by hand): then works is false and says so.
const SandboxStatus& sandbox_status();

/// The note every report of an unsealed check carries: "not sealed: <why> ...".
std::string unsealed_note(const SandboxStatus& status);

}  // namespace cugrade
