// FakeProcessRunner: scripted answers for tests.
#include "process/fake_process_runner.hpp"

namespace cugrade {

void FakeProcessRunner::expect(Handler handler) { handlers_.push_back(std::move(handler)); }

ProcessResult FakeProcessRunner::run(const ProcessRequest& request) {
  std::unique_lock lock(mutex_);
  requests_.push_back(request);
  if (handlers_.empty()) {
    std::string joined;
    for (const auto& arg : request.argv) joined += (joined.empty() ? "" : " ") + arg;
    ProcessResult result;
    result.launch_error = "FakeProcessRunner: unexpected command: " + joined;
    return result;
  }
  Handler handler = std::move(handlers_.front());
  handlers_.pop_front();
  lock.unlock();
  return handler(request);
}

void FakeProcessRunner::expect_interactive(InteractiveHandler handler) { interactive_.push_back(std::move(handler)); }

namespace {
/// What start() gives when nothing was scripted: a child that never started.
class NotStarted final : public InteractiveProcess {
 public:
  explicit NotStarted(std::string why) : why_(std::move(why)) {}
  bool started() const override { return false; }
  bool send(const std::string&) override { return false; }
  std::optional<std::string> receive(double) override { return std::nullopt; }
  bool timed_out() const override { return false; }
  ProcessResult finish(double) override {
    ProcessResult result;
    result.launch_error = why_;
    return result;
  }

 private:
  std::string why_;
};
}  // namespace

std::unique_ptr<InteractiveProcess> FakeProcessRunner::start(const ProcessRequest& request) {
  std::unique_lock lock(mutex_);  // a check's build and its baselines run side by side
  requests_.push_back(request);
  if (interactive_.empty()) {
    std::string joined;
    for (const auto& arg : request.argv) joined += (joined.empty() ? "" : " ") + arg;
    return std::make_unique<NotStarted>("FakeProcessRunner: unexpected interactive command: " + joined);
  }
  InteractiveHandler handler = std::move(interactive_.front());
  interactive_.pop_front();
  lock.unlock();
  return handler(request);
}

ProcessResult fake_exit(int exit_code, std::string stdout_text, std::string stderr_text) {
  ProcessResult result;
  result.started = true;
  result.exit_code = exit_code;
  result.stdout_text = std::move(stdout_text);
  result.stderr_text = std::move(stderr_text);
  return result;
}

}  // namespace cugrade
