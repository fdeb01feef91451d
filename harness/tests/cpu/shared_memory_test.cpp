// Shared memory starts each block filled with the poison byte (CUGRADE_SHARED_POISON), static
// and dynamic, and the executor logs which kernel uses which shared memory
// (CUGRADE_CPU_SHARED_LOG): what the pipeline's uninitialised-read diagnosis stands on.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/kernels.hpp"

namespace {

/// The kernel's results with shared memory poisoned by `poison` ("ff", "00").
cpu_test::Launched poisoned(const std::string& which, const char* poison) {
  setenv("CUGRADE_SHARED_POISON", poison, 1);
  auto r = cpu_test::shared_reads(which);
  unsetenv("CUGRADE_SHARED_POISON");
  return r;
}

}  // namespace

TEST_CASE("cpu::shared memory poison") {
  SUBCASE("a static __shared__ array: unwritten elements read the poison, written ones do not") {
    for (const std::string which : {"static", "dynamic"}) {
      CAPTURE(which);
      auto ff = poisoned(which, "ff"), zero = poisoned(which, "00");
      CHECK(ff.error == "no error");
      for (int block = 0; block < 3; ++block) {
        CHECK(ff.values[block * 64 + 5] == 5.0f);
        CHECK(zero.values[block * 64 + 5] == 5.0f);
        CHECK(std::isnan(ff.values[block * 64 + 40]));  // 0xFFFFFFFF is a NaN
        CHECK(zero.values[block * 64 + 40] == 0.0f);
      }
    }
  }
  SUBCASE("each block starts poisoned, not with what the last block on its worker left") {
    auto ff = poisoned("per_block", "ff");
    auto zero = poisoned("per_block", "00");
    CHECK(ff.values[0] == 7.0f);
    for (int block = 1; block < 64; ++block) {
      CAPTURE(block);
      CHECK(ff.values[block] == -1.0f);
      CHECK(zero.values[block] == 0.0f);
    }
  }
  SUBCASE("file-scope __shared__ variables too") {
    auto ff = poisoned("file_scope", "ff"), zero = poisoned("file_scope", "00");
    for (int block = 0; block < 3; ++block) {
      CHECK(ff.values[block] == 0.0f);  // -1 + 1
      CHECK(zero.values[block] == 1.0f);
    }
  }
  SUBCASE("no or a malformed poison setting: 0xFF") {
    CHECK(std::isnan(cpu_test::shared_reads("static").values[40]));
    CHECK(std::isnan(poisoned("static", "zero").values[40]));
  }
}

TEST_CASE("cpu::shared memory log") {
  const auto log = std::filesystem::temp_directory_path() / ("cugrade-shared-log-" + std::to_string(::getpid()));
  std::filesystem::remove(log);
  setenv("CUGRADE_CPU_SHARED_LOG", log.c_str(), 1);
  cpu_test::shared_reads("static");
  cpu_test::shared_reads("static");  // logged once per distinct line
  cpu_test::shared_reads("dynamic");
  unsetenv("CUGRADE_CPU_SHARED_LOG");
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(log);
  const std::string lines = text.str();
  auto logged = [&](const std::string& line) { return lines.find(line + "\n") != std::string::npos; };
  CHECK(logged("half_written_static\t__shared__ s in half_written_static, shared_kernels.cu:16"));
  CHECK(logged("half_written_dynamic\textern __shared__ d in half_written_dynamic, shared_kernels.cu:23"));
  CHECK(logged("half_written_dynamic\textern __shared__ memory of kernel half_written_dynamic"));
  // The file-scope variable is poisoned at every block start, so it is listed for every kernel.
  CHECK(logged("half_written_static\tfile-scope __shared__ file_scope_count, shared_kernels.cu:12"));
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 5);
}
