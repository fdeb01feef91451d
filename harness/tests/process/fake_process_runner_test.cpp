// FakeProcessRunner: records requests, answers from scripted handlers in order.
#include "process/fake_process_runner.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("process::FakeProcessRunner") {
  FakeProcessRunner runner;
  ProcessRequest first;
  first.argv = {"nvcc", "-c", "a.cu"};
  ProcessRequest second;
  second.argv = {"nm", "a.o"};

  SUBCASE("answers from the handlers in order and records every request") {
    runner.expect([](const ProcessRequest&) { return fake_exit(0, "one"); });
    runner.expect([](const ProcessRequest& request) { return fake_exit(2, "", request.argv[1]); });
    CHECK(runner.pending() == 2);
    const ProcessResult a = runner.run(first);
    const ProcessResult b = runner.run(second);
    CHECK(a.started);
    CHECK(a.exit_code == 0);
    CHECK(a.stdout_text == "one");
    CHECK(b.exit_code == 2);
    CHECK(b.stderr_text == "a.o");
    REQUIRE(runner.requests().size() == 2);
    CHECK(runner.requests()[0].argv == first.argv);
    CHECK(runner.requests()[1].argv == second.argv);
    CHECK(runner.pending() == 0);
  }

  SUBCASE("an unexpected command is not started and says which") {
    const ProcessResult result = runner.run(first);
    CHECK_FALSE(result.started);
    CHECK(result.launch_error == "FakeProcessRunner: unexpected command: nvcc -c a.cu");
    CHECK(runner.requests().size() == 1);
  }
}
