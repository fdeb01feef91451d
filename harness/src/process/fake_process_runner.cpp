// FakeProcessRunner: scripted answers for tests.
#include "process/fake_process_runner.hpp"

namespace cugrade {

void FakeProcessRunner::expect(Handler handler) { handlers_.push_back(std::move(handler)); }

ProcessResult FakeProcessRunner::run(const ProcessRequest& request) {
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
