#pragma once
// A child the harness talks to while it runs: commands on the child's descriptor 3, replies read
// from its descriptor 4, stdout and stderr captured to capped files as ProcessRunner::run does.
// Used by lock-step timing (run/lockstep_timing.hpp), where the parent's own clock must bracket
// every timed call, which a run-to-completion process cannot give.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "process/process_runner.hpp"

namespace cugrade {

/// One running child with a command channel and a reply channel.
class InteractiveProcess {
 public:
  virtual ~InteractiveProcess() = default;
  /// False when the child could not be started (ProcessResult::launch_error says why).
  virtual bool started() const = 0;
  /// Sends one line (a newline is added); false when the child no longer reads.
  virtual bool send(const std::string& line) = 0;
  /// The next reply line, waiting at most `timeout_s`; nullopt at end of output or on timeout
  /// (timed_out() tells which).
  virtual std::optional<std::string> receive(double timeout_s) = 0;
  /// True when the last receive() gave up because of its timeout.
  virtual bool timed_out() const = 0;
  /// Ends the child's whole process group (after a grace of `grace_s` for it to exit by itself)
  /// and reports how it ended, with what it printed (capped as the request says).
  virtual ProcessResult finish(double grace_s) = 0;
};

/// Starts `request` (its sandbox, environment, working folder and output cap; timeouts are the
/// caller's, per receive) with the two channels.
std::unique_ptr<InteractiveProcess> start_interactive(const ProcessRequest& request);

}  // namespace cugrade
