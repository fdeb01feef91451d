#pragma once
// A scripted ProcessRunner for tests: every stage that runs a command (build, run, device probe)
// can be tested without nvcc, a GPU or any real process (design.md §2, after ninja).
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "process/interactive_process.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Records every request and answers each from the next scripted handler, in order. Requests
/// may come from several threads (compute-sanitizer's tools run side by side): each takes the
/// next handler under a lock and runs it outside.
class FakeProcessRunner : public ProcessRunner {
 public:
  /// A scripted response; it may also write files (a fake nvcc creating its object file).
  using Handler = std::function<ProcessResult(const ProcessRequest&)>;

  /// A scripted interactive child (lock-step timing's runners).
  using InteractiveHandler = std::function<std::unique_ptr<InteractiveProcess>(const ProcessRequest&)>;

  /// Queues the handler for the next unanswered request.
  void expect(Handler handler);
  /// Queues the handler for the next start() (answered in order, apart from run()'s queue).
  void expect_interactive(InteractiveHandler handler);

  /// Answers from the next handler; with none left, a result with started=false and
  /// launch_error "FakeProcessRunner: unexpected command: <argv joined by spaces>".
  ProcessResult run(const ProcessRequest& request) override;
  /// Answers from the next interactive handler, recording the request; with none left, a
  /// process that did not start (launch_error says so).
  std::unique_ptr<InteractiveProcess> start(const ProcessRequest& request) override;

  /// Every request received so far, in order.
  const std::vector<ProcessRequest>& requests() const { return requests_; }

  /// How many scripted handlers have not been used yet.
  std::size_t pending() const { return handlers_.size() + interactive_.size(); }

 private:
  std::deque<Handler> handlers_;
  std::deque<InteractiveHandler> interactive_;
  std::vector<ProcessRequest> requests_;
  std::mutex mutex_;
};

/// A result for scripted handlers: started, exited with `exit_code`, with the given output.
ProcessResult fake_exit(int exit_code, std::string stdout_text = {}, std::string stderr_text = {});

}  // namespace cugrade
