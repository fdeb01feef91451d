#pragma once
// A scripted stand-in for a runner serving one side of lock-step timing (runtime/serve_task.hpp),
// for tests of the timing and of the whole pipeline without a GPU or any real process.
#include <doctest/doctest.h>

#include <deque>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "job.hpp"
#include "run/fake_runner.hpp"
#include "process/fake_process_runner.hpp"
#include "process/interactive_process.hpp"

namespace cugrade::test {

/// The job a serving runner was started with (argv: runner --serve <job.json>).
inline Job serve_job_of(const ProcessRequest& request) {
  REQUIRE(request.argv.size() == 3);
  CHECK(request.argv[1] == "--serve");
  return read_job(request.argv[2]);
}

/// A runner that says hello, then answers every command with `answer(command)` ("quit": nothing).
class FakeServer final : public InteractiveProcess {
 public:
  using Answer = std::function<std::string(const std::string& command)>;
  explicit FakeServer(Answer answer) : answer_(std::move(answer)) { replies_.push_back("hello"); }

  bool started() const override { return true; }
  bool send(const std::string& line) override {
    if (line != "quit") replies_.push_back(answer_(line));
    return true;
  }
  std::optional<std::string> receive(double) override {
    if (replies_.empty()) return std::nullopt;
    std::string reply = std::move(replies_.front());
    replies_.pop_front();
    return reply;
  }
  bool timed_out() const override { return false; }
  ProcessResult finish(double) override { return fake_exit(0); }

 private:
  Answer answer_;
  std::deque<std::string> replies_;
};

/// A digest reply of 64 sums (the first `first_sum`, the rest 0), 64 bounds of 0, the exact
/// part's two halves (the low one `exact_low`) and 64 spots of 0 for each of `outputs` outputs.
inline std::string digest_reply(double first_sum = 0.0, unsigned exact_low = 0, int outputs = 1) {
  std::string text = "digest " + std::to_string(first_sum);
  for (int i = 1; i < 129; ++i) text += " 0";
  text += " " + std::to_string(exact_low);
  for (int i = 0; i < 64 * outputs; ++i) text += " 0";
  return text;
}

}  // namespace cugrade::test
