#pragma once
// A scripted ProcessRunner for tests: every stage that runs a command (build, run, device probe)
// can be tested without nvcc, a GPU or any real process (design.md §2, after ninja).
#include <deque>
#include <functional>
#include <vector>

#include "process/process_runner.hpp"

namespace cugrade {

/// Records every request and answers each from the next scripted handler, in order.
class FakeProcessRunner : public ProcessRunner {
 public:
  /// A scripted response; it may also write files (a fake nvcc creating its object file).
  using Handler = std::function<ProcessResult(const ProcessRequest&)>;

  /// Queues the handler for the next unanswered request.
  void expect(Handler handler);

  /// Answers from the next handler; with none left, a result with started=false and
  /// launch_error "FakeProcessRunner: unexpected command: <argv joined by spaces>".
  ProcessResult run(const ProcessRequest& request) override;

  /// Every request received so far, in order.
  const std::vector<ProcessRequest>& requests() const { return requests_; }

  /// How many scripted handlers have not been used yet.
  std::size_t pending() const { return handlers_.size(); }

 private:
  std::deque<Handler> handlers_;
  std::vector<ProcessRequest> requests_;
};

/// A result for scripted handlers: started, exited with `exit_code`, with the given output.
ProcessResult fake_exit(int exit_code, std::string stdout_text = {}, std::string stderr_text = {});

}  // namespace cugrade
