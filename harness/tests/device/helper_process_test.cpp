// Running the GPU helpers: every way a helper can fail becomes one sentence.
#include <doctest/doctest.h>

#include "device/helper_process.hpp"
#include "process/fake_process_runner.hpp"

using namespace cugrade;

TEST_CASE("device::run_helper") {
  FakeProcessRunner runner;
  SUBCASE("exit 0: its stdout, run with the scrubbed environment and the timeout asked for") {
    runner.expect([](const ProcessRequest&) { return fake_exit(0, "{}\n"); });
    const auto output = run_helper(runner, "/bin/helper", "the helper", 12.0);
    REQUIRE(output.has_value());
    CHECK(*output == "{}\n");
    REQUIRE(runner.requests().size() == 1);
    CHECK(runner.requests()[0].argv == std::vector<std::string>{"/bin/helper"});
    CHECK(runner.requests()[0].timeout_s == 12.0);
    CHECK(runner.requests()[0].environment == scrubbed_environment());
  }
  SUBCASE("a non-zero exit without JSON quotes the first line of stderr") {
    runner.expect([](const ProcessRequest&) {
      return fake_exit(127, "", "error while loading shared libraries: libcublas.so.13\nmore");
    });
    const auto output = run_helper(runner, "/bin/helper", "the helper", 10.0);
    REQUIRE_FALSE(output.has_value());
    CHECK(output.error().message ==
          "the helper failed (exit code 127): error while loading shared libraries: "
          "libcublas.so.13");
  }
  SUBCASE("a non-zero exit with nothing to say") {
    runner.expect([](const ProcessRequest&) { return fake_exit(3); });
    const auto output = run_helper(runner, "/bin/helper", "the helper", 10.0);
    REQUIRE_FALSE(output.has_value());
    CHECK(output.error().message == "the helper failed (exit code 3)");
  }
}

TEST_CASE("device::first_line") {
  CHECK(first_line("one\ntwo") == "one");
  CHECK(first_line("") == "");
  CHECK(first_line(std::string(250, 'x')) == std::string(200, 'x') + "...");
}
