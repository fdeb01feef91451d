// `cugrade bench` from the command line, for the answers that need no GPU: a machine without one
// is told so (never shown CPU-backend times), and bad arguments are refused before anything runs.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace {

/// Runs `cugrade <args...>` in this process; returns the exit code and what went to stderr.
std::pair<int, std::string> run_cugrade(std::vector<std::string> args) {
  args.insert(args.begin(), "cugrade");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  std::ostringstream captured;
  std::streambuf* saved = std::cerr.rdbuf(captured.rdbuf());
  const int code = cugrade::run_cli(static_cast<int>(argv.size()), argv.data());
  std::cerr.rdbuf(saved);
  return {code, captured.str()};
}

}  // namespace

TEST_CASE("cli::bench") {
  SUBCASE("no GPU: a clear message and exit 1, no table of CPU times") {
    // An empty CUDA_VISIBLE_DEVICES hides every GPU, so this runs the same on a GPU machine.
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    const auto [code, err] = run_cugrade({"bench", "vecadd", "--quiet"});
    unsetenv("CUDA_VISIBLE_DEVICES");
    CHECK(code == 1);
    CHECK(err.starts_with("cugrade: no GPU to time the reference kernels on ("));
    CHECK(err.ends_with(
        "). `cugrade bench` measures the lecture tables on an NVIDIA GPU only; the CPU backend "
        "checks kernels for correctness but does not time them (`cugrade selftest --backend cpu` "
        "checks every reference).\n"));
  }
  SUBCASE("an unknown assignment is an invalid spec (exit 2)") {
    const auto [code, err] = run_cugrade({"bench", "vecad"});
    CHECK(code == 2);
    CHECK(err.starts_with("cugrade: unknown assignment 'vecad'; did you mean 'vecadd'?"));
  }
  SUBCASE("a report kind the bench does not write (exit 1)") {
    const auto [code, err] = run_cugrade({"bench", "vecadd", "--report", "junit=out.xml"});
    CHECK(code == 1);
    CHECK(err == "cugrade: --report junit=out.xml: cugrade bench writes console, json or markdown, "
                 "not junit\n");
  }
  SUBCASE("sampling settings that cannot work (exit 1)") {
    const auto [code, err] = run_cugrade({"bench", "vecadd", "--min-samples", "20", "--max-samples", "10"});
    CHECK(code == 1);
    CHECK(err == "cugrade: --budget must be > 0 s and 1 <= --min-samples <= --max-samples\n");
  }
}
