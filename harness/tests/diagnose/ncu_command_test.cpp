// find_ncu, ncu_command and ncu_failure (harness/src/diagnose/ncu_command.cpp).
#include "diagnose/ncu_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("diagnose::ncu_command") {
  const auto argv = ncu_command("/cuda/bin/ncu", "/w/runner", "/w/p/job.json", "/w/p/ncu.csv", 32);
  REQUIRE(argv.size() > 4);
  CHECK(argv.front() == "/cuda/bin/ncu");
  CHECK(argv[argv.size() - 2] == "/w/runner");
  CHECK(argv.back() == "/w/p/job.json");
  const auto after = [&](const std::string& option) {
    const auto it = std::find(argv.begin(), argv.end(), option);
    REQUIRE_MESSAGE(it != argv.end(), option);
    REQUIRE(it + 1 != argv.end());
    return *(it + 1);
  };
  // Only the entry call's kernels (the runner's NVTX range), at most 32 of them.
  CHECK(std::find(argv.begin(), argv.end(), "--nvtx") != argv.end());
  CHECK(after("--nvtx-include") == "cugrade_entry/");
  CHECK(after("--launch-count") == "32");
  CHECK(after("--log-file") == "/w/p/ncu.csv");
  CHECK(after("--print-units") == "base");
  CHECK(after("--clock-control") == "none");  // the GPU's settings stay as they are
  CHECK(after("--metrics").find("gpu__time_duration.sum") != std::string::npos);
  CHECK(std::find(argv.begin(), argv.end(), "--csv") != argv.end());
}

TEST_CASE("diagnose::ncu_failure") {
  CHECK(ncu_failure("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                    "Performance Counters on the target device 0.\n",
                    1)
            .rfind("this machine lets only administrators read the GPU's performance counters (ERR_NVGPUCTRPERM", 0) == 0);
  CHECK(ncu_failure("==PROF== Disconnected from process 9\n==WARNING== No kernels were profiled.\n", 0) ==
        "ncu profiled no kernel inside the entry call (does it launch one?)");
  CHECK(ncu_failure("==ERROR== Failed to find metric regex:smsp__bogus\nmore\n", 1) ==
        "ncu: Failed to find metric regex:smsp__bogus");
  CHECK(ncu_failure("nothing useful", 3) == "ncu ended with status 3 and no counters (it said: nothing useful)");
  CHECK(ncu_failure("\n\n", 3) == "ncu ended with status 3 and no counters");
  // The sandbox's tools say why in their own words: the last line is kept.
  CHECK(ncu_failure("==PROF== Connected\nbwrap: Can't mount tmpfs on /newroot/dev/shm: No such file\n", 1) ==
        "ncu ended with status 1 and no counters (it said: bwrap: Can't mount tmpfs on /newroot/dev/shm: No such file)");
}

TEST_CASE("diagnose::find_ncu") {
  SUBCASE("CUGRADE_NCU wins") {
    setenv("CUGRADE_NCU", "/opt/nsight/ncu", 1);
    CHECK(find_ncu(Locations{}) == "/opt/nsight/ncu");
    unsetenv("CUGRADE_NCU");
  }
  SUBCASE("else nothing where neither the toolkit nor PATH has one") {
    const char* saved = std::getenv("PATH");
    const std::string path = saved ? saved : "";
    setenv("PATH", "/nonexistent", 1);
    Locations where;
    where.nvcc = "/nonexistent/bin/nvcc";
    CHECK(find_ncu(where).empty());
    setenv("PATH", path.c_str(), 1);
  }
}

TEST_CASE("diagnose::ncu_installation") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("cugrade-ncu-test-" + std::to_string(::getpid()));
  const auto file = [&](const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  };
  // The toolkit's wrapper, as CUDA 13 installs it, and Nsight Compute under /opt/nvidia.
  file(root / "cuda-13.0/bin/ncu", "#!/bin/sh\n# finds nsight-compute and runs its ncu\n");
  file(root / "opt/nvidia/nsight-compute/2025.1.0/ncu", "#!/bin/sh\n");
  file(root / "opt/nvidia/nsight-compute/2025.3.1/ncu", "#!/bin/sh\n");
  SUBCASE("the wrapper leads to the newest installation under the roots") {
    CHECK(ncu_installation(root / "cuda-13.0/bin/ncu", {root / "opt/nvidia"}) ==
          root / "opt/nvidia/nsight-compute/2025.3.1/ncu");
  }
  SUBCASE("an installation beside the toolkit comes first") {
    file(root / "cuda-13.0/nsight-compute-2025.3.1/ncu", "#!/bin/sh\n");
    CHECK(fs::canonical(ncu_installation(root / "cuda-13.0/bin/ncu", {root / "opt/nvidia"})) ==
          fs::canonical(root / "cuda-13.0/nsight-compute-2025.3.1/ncu"));
  }
  SUBCASE("no installation found: the wrapper itself (its failure then says why)") {
    CHECK(ncu_installation(root / "cuda-13.0/bin/ncu", {root / "nowhere"}) == root / "cuda-13.0/bin/ncu");
  }
  SUBCASE("a program, not a script, is itself") {
    file(root / "bin/ncu", "\x7f" "ELF");
    CHECK(ncu_installation(root / "bin/ncu", {root / "opt/nvidia"}) == root / "bin/ncu");
  }
  fs::remove_all(root);
}
