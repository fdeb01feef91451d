#pragma once
// Running child processes (nvcc, the runner) behind an interface, so the whole pipeline can be
// tested with a fake and no nvcc or GPU (design.md §2, after ninja).
#include <filesystem>
#include <functional>
#include <map>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cugrade {

/// A host path made visible inside a sandbox, read-only unless `writable`.
struct SandboxMount {
  std::filesystem::path source;  ///< on the host (must exist)
  std::filesystem::path target;  ///< inside the sandbox; empty = the same path as `source`
  bool writable = false;
};

/// How to contain one untrusted step (the student's compile, the runner) with bubblewrap
/// (design.md §4): new user, PID, IPC, UTS and network namespaces, a private /proc, the system
/// read-only, nothing of the host's files but the system and `mounts`, and rlimits. The whole
/// PID namespace dies with the step. Implemented in process/sandbox.cpp.
struct SandboxSpec {
  std::vector<SandboxMount> mounts;  ///< the step's work folder (writable) and what it reads
  bool gpu = false;                  ///< bind the NVIDIA device nodes the CUDA driver needs
  std::uint64_t address_space_bytes = 0;  ///< RLIMIT_AS; 0 = unlimited (CUDA maps huge ranges)
  std::uint64_t cpu_seconds = 0;          ///< RLIMIT_CPU; 0 = unlimited
  std::uint64_t file_bytes = std::uint64_t{4} << 30;  ///< RLIMIT_FSIZE: largest file written
  unsigned max_processes = 256;      ///< processes inside the step (nvcc forks cicc, ptxas, gcc)
  unsigned max_open_files = 1024;    ///< RLIMIT_NOFILE
  /// A private, writable /dev/shm (tmpfs) in the otherwise read-only /dev: for a tool that talks
  /// to the process it watches through shared memory (Nsight Compute's profile of a runner).
  bool shared_memory = false;
};

/// What to run and under which limits.
struct ProcessRequest {
  std::vector<std::string> argv;                  ///< argv[0] is looked up on PATH if not a path
  std::filesystem::path working_dir;              ///< empty = the current directory
  std::map<std::string, std::string> environment; ///< the child's whole environment (scrubbed)
  double timeout_s = 60.0;                        ///< wall clock; then the process group is killed
  std::size_t output_limit_bytes = 1 << 20;       ///< stdout+stderr; past it the group is killed
  /// Polled about every 20 ms while the child runs; returning true kills the group (used for
  /// per-case deadlines read from the runner's event stream). May be empty.
  std::function<bool()> should_kill;
  /// Set: run inside a bubblewrap sandbox (argv[0] must then be an absolute path or a name
  /// on the sandbox's PATH). Unset: run as a plain child (trusted tools such as nm).
  std::optional<SandboxSpec> sandbox = {};
  /// RLIMIT_AS of the child, sealed or not (0 = none): a CPU runner's memory stays bounded even
  /// where the sandbox cannot run.
  std::uint64_t address_space_bytes = 0;
};

/// How it ended.
struct ProcessResult {
  bool started = false;             ///< false: could not be started (see launch_error)
  std::string launch_error;         ///< e.g. "nvcc: not found on PATH"
  int exit_code = -1;               ///< valid when it exited normally
  std::optional<int> signal;        ///< set when it died from a signal
  bool timed_out = false;           ///< killed by the timeout
  bool killed_by_watchdog = false;  ///< killed because should_kill returned true
  bool output_limit_exceeded = false;
  std::string stdout_text;          ///< first output_limit_bytes bytes
  std::string stderr_text;          ///< first output_limit_bytes bytes
  double seconds = 0.0;
};

class InteractiveProcess;  // process/interactive_process.hpp

/// Runs child processes. Implementations: BoostProcessRunner (real), FakeProcessRunner (tests).
class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// Runs the request to completion (or to a limit) and reports how it ended.
  virtual ProcessResult run(const ProcessRequest& request) = 0;
  /// Starts the request as a child the caller talks to line by line (lock-step timing); by
  /// default a real child (start_interactive).
  virtual std::unique_ptr<InteractiveProcess> start(const ProcessRequest& request);
};

/// The real runner: Boost.Process, own process group, scrubbed environment, capped output.
std::unique_ptr<ProcessRunner> make_process_runner();

/// A minimal scrubbed environment: PATH, HOME, LANG=C, plus CUDA_VISIBLE_DEVICES and the
/// variables CUDA needs, taken from this process; nothing of the user's else.
std::map<std::string, std::string> scrubbed_environment();

}  // namespace cugrade
