// scrubbed_environment(): only what children need, nothing of the user's else.
#include <doctest/doctest.h>

#include <cstdlib>

#include "process/process_runner.hpp"

using namespace cugrade;

TEST_CASE("process::scrubbed_environment") {
  SUBCASE("keeps PATH and the CUDA variables, drops everything else") {
    ::setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    ::setenv("CUGRADE_COURSE_SECRET", "do-not-leak", 1);
    const auto environment = scrubbed_environment();
    ::unsetenv("CUDA_VISIBLE_DEVICES");
    ::unsetenv("CUGRADE_COURSE_SECRET");
    CHECK(environment.at("CUDA_VISIBLE_DEVICES") == "1");
    CHECK(environment.count("CUGRADE_COURSE_SECRET") == 0);
    CHECK(environment.at("LANG") == "C");
    CHECK(environment.count("PATH") == 1);
  }

  SUBCASE("gives a default PATH when we have none") {
    const char* saved = std::getenv("PATH");
    const std::string path = saved ? saved : "";
    ::unsetenv("PATH");
    const auto environment = scrubbed_environment();
    if (saved) ::setenv("PATH", path.c_str(), 1);
    CHECK(environment.at("PATH") == "/usr/local/bin:/usr/bin:/bin");
  }
}
