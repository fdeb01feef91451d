#pragma once
// The GPU tests' skip: without a GPU a test ends with exit code 77, which CTest reports as
// "Skipped" (SKIP_RETURN_CODE), visibly, never a silent pass. The test executable defines
// CUGRADE_PROBE, the path of cugrade-probe, which reports the GPUs as JSON.
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

namespace cugrade::test {

/// Whether cugrade-probe sees a GPU; asked once per test process.
inline bool gpu_present() {
  static const bool present = [] {
    std::string output;
    if (FILE* pipe = popen(CUGRADE_PROBE, "r")) {
      char buffer[4096];
      while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
      pclose(pipe);
    }
    const auto json = nlohmann::json::parse(output, nullptr, /*allow_exceptions=*/false);
    return json.is_object() && json.value("device_count", 0) > 0;
  }();
  return present;
}

/// Without a GPU, ends this test process with exit code 77 ("Skipped").
inline void skip_without_gpu() {
  if (gpu_present()) return;
  std::printf("SKIPPED: no GPU on this machine (cugrade-probe found none)\n");
  std::fflush(stdout);
  std::_Exit(77);
}

}  // namespace cugrade::test
