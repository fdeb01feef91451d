#pragma once
// Running child processes (nvcc, the runner) behind an interface, so the whole pipeline can be
// tested with a fake and no nvcc or GPU (design.md §2, after ninja).
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cugrade {

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

/// Runs child processes. Implementations: BoostProcessRunner (real), FakeProcessRunner (tests).
class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// Runs the request to completion (or to a limit) and reports how it ended.
  virtual ProcessResult run(const ProcessRequest& request) = 0;
};

/// The real runner: Boost.Process, own process group, scrubbed environment, capped output.
std::unique_ptr<ProcessRunner> make_process_runner();

/// A minimal scrubbed environment: PATH, HOME, LANG=C, plus CUDA_VISIBLE_DEVICES and the
/// variables CUDA needs, taken from this process; nothing of the user's else.
std::map<std::string, std::string> scrubbed_environment();

}  // namespace cugrade
