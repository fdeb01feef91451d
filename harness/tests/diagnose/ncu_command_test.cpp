// find_ncu, ncu_command and ncu_failure (harness/src/diagnose/ncu_command.cpp).
#include "diagnose/ncu_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
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
  CHECK(std::find(argv.begin(), argv.end(), "--section-folder") == argv.end());  // none given: ncu's own

  SUBCASE("a section folder of our own goes before the program") {
    for (const auto& with : {ncu_command("/cuda/bin/ncu", "/w/runner", "/w/p/job.json", "/w/p/ncu.csv", 32, "/w/s/none"),
                             ncu_source_command("/cuda/bin/ncu", "/w/runner", "/w/p/job.json", "/w/p/ncu.csv", "k",
                                                "/w/s/source")}) {
      const auto it = std::find(with.begin(), with.end(), "--section-folder");
      REQUIRE(it != with.end());
      CHECK(std::string(*(it + 1)).starts_with("/w/s/"));
      CHECK(with[with.size() - 2] == "/w/runner");
      CHECK(with.back() == "/w/p/job.json");
    }
  }
}

TEST_CASE("diagnose::ncu_section_folders") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("cugrade-ncu-sections-" + std::to_string(::getpid()));
  fs::create_directories(root / "nsight-compute/sections");
  std::ofstream(root / "nsight-compute/ncu") << "#!/bin/sh\n";
  std::ofstream(root / "nsight-compute/sections/SourceCounters.section") << "Identifier: \"SourceCounters\"\n";
  std::ofstream(root / "nsight-compute/sections/MemoryWorkloadAnalysis.section") << "Identifier: \"Memory\"\n";
  std::ofstream(root / "nsight-compute/sections/rule.py") << "raise SystemExit\n";
  const auto entries = [](const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
    return names;
  };

  SUBCASE("none is empty; source holds SourceCounters alone, as ncu's own file has it") {
    const NcuSectionFolders folders = ncu_section_folders(root / "nsight-compute/ncu", root / "work/ncu-sections");
    REQUIRE_FALSE(folders.none.empty());
    REQUIRE_FALSE(folders.source.empty());
    CHECK(entries(folders.none).empty());
    CHECK(entries(folders.source) == std::vector<std::string>{"SourceCounters.section"});
    std::ifstream copied(folders.source / "SourceCounters.section");
    std::string text((std::istreambuf_iterator<char>(copied)), std::istreambuf_iterator<char>());
    CHECK(text == "Identifier: \"SourceCounters\"\n");
    // Made once: the second call finds them.
    const NcuSectionFolders again = ncu_section_folders(root / "nsight-compute/ncu", root / "work/ncu-sections");
    CHECK(again.source == folders.source);
    CHECK(entries(again.source) == std::vector<std::string>{"SourceCounters.section"});
  }
  SUBCASE("an installation without the section file: the source page reads ncu's own folder") {
    fs::remove(root / "nsight-compute/sections/SourceCounters.section");
    const NcuSectionFolders folders = ncu_section_folders(root / "nsight-compute/ncu", root / "work2/ncu-sections");
    CHECK_FALSE(folders.none.empty());
    CHECK(folders.source.empty());
  }
  SUBCASE("no ncu at all: no folder") {
    const NcuSectionFolders folders = ncu_section_folders(root / "missing/ncu", root / "work3/ncu-sections");
    CHECK(folders.none.empty());
    CHECK(folders.source.empty());
  }
  fs::remove_all(root);
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
