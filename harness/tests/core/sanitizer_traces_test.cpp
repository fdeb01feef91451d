// runtime/sanitizer_traces: what compute-sanitizer's launcher put in a runner's environment (the
// names and values seen on an H200 with CUDA 13.0) is gone after hide_sanitizer_traces().
#include "sanitizer_traces.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "task_markers.hpp"

using namespace cugrade;

TEST_CASE("runtime::hide_sanitizer_traces") {
  namespace fs = std::filesystem;
  // The markers' latch is read before anything below is set (this process has no
  // CUGRADE_TASK_MARKERS): the sanitizer is known here by its own variable.
  REQUIRE_FALSE(task_markers_on());
  const fs::path tool = fs::temp_directory_path() / "cugrade-sanitizer-traces-test";
  fs::create_directories(tool);
  std::ofstream(tool / "libsanitizer-collection.so") << "";
  const char* launched[][2] = {
      {"NV_SANITIZER_INJECTION_PORT_BASE", "49152"},
      {"NV_SANITIZER_INJECTION_TRANSPORT_TYPE", "uds"},
      {"NVIDIA_PROCESS_INJECTION_CRASH_REPORTING", "0"},
      {"NVIDIA-PROCESS-TRACKING-FILTER", "exclude-tree:nvidia-modprobe"},
      {"NVTX_INJECTION64_PATH", "libsanitizer-collection.so"},
      {"PWD", "/tmp"},
      {task_markers_variable, "1"},
  };
  for (const auto& [name, value] : launched) ::setenv(name, value, 1);
  ::setenv("LD_LIBRARY_PATH", (tool.string() + ":/opt/cuda/lib64").c_str(), 1);
  ::setenv("CUDA_MODULE_LOADING", "LAZY", 1);
  ::setenv("CUGRADE_KEEP_THIS", "yes", 1);

  runner::hide_sanitizer_traces();

  for (const auto& [name, value] : launched) {
    CAPTURE(name);
    CHECK(std::getenv(name) == nullptr);
  }
  REQUIRE(std::getenv("LD_LIBRARY_PATH") != nullptr);
  CHECK(std::string(std::getenv("LD_LIBRARY_PATH")) == "/opt/cuda/lib64");
  CHECK(std::string(std::getenv("CUDA_MODULE_LOADING")) == "EAGER");
  CHECK(std::string(std::getenv("CUGRADE_KEEP_THIS")) == "yes");

  SUBCASE("an LD_LIBRARY_PATH of the sanitizer's folder alone is taken out") {
    ::setenv("NV_SANITIZER_INJECTION_PORT_BASE", "49152", 1);
    ::setenv("LD_LIBRARY_PATH", tool.c_str(), 1);
    runner::hide_sanitizer_traces();
    CHECK(std::getenv("LD_LIBRARY_PATH") == nullptr);
  }
  ::unsetenv("CUGRADE_KEEP_THIS");
  ::unsetenv("LD_LIBRARY_PATH");
  fs::remove_all(tool);
}

TEST_CASE("runtime::hide_sanitizer_traces outside the sanitizer") {
  // A runner alone or under Nsight Compute (whose injection has variables of its own): nothing
  // is taken.
  REQUIRE_FALSE(task_markers_on());
  ::unsetenv("NV_SANITIZER_INJECTION_PORT_BASE");
  ::setenv("LD_PRELOAD", "/opt/nsight/libInjection.so", 1);
  ::setenv("PWD", "/tmp", 1);
  runner::hide_sanitizer_traces();
  CHECK(std::getenv("LD_PRELOAD") != nullptr);
  CHECK(std::getenv("PWD") != nullptr);
  ::unsetenv("LD_PRELOAD");
  ::unsetenv("PWD");
}

TEST_CASE("runtime::sanitizer_variable") {
  CHECK(runner::sanitizer_variable("NV_SANITIZER_INJECTION_PORT_RANGE_END"));
  CHECK(runner::sanitizer_variable("NVIDIA-PROCESS-TRACKING-CONFIGURATION"));
  CHECK(runner::sanitizer_variable("CUDA_INJECTION64_PATH"));
  CHECK(runner::sanitizer_variable("LD_PRELOAD"));
  CHECK_FALSE(runner::sanitizer_variable("PATH"));
  CHECK_FALSE(runner::sanitizer_variable("CUDA_VISIBLE_DEVICES"));
  CHECK_FALSE(runner::sanitizer_variable("NV"));
}
