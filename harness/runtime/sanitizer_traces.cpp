#include "sanitizer_traces.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "task_markers.hpp"

extern char** environ;

namespace cugrade::runner {
namespace {

bool starts_with(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

/// LD_LIBRARY_PATH without the folders that hold the sanitizer's collection library.
std::string without_sanitizer_folders(const std::string& path) {
  std::string kept;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string folder = path.substr(start, end - start);
    if (!folder.empty() && ::access((folder + "/libsanitizer-collection.so").c_str(), F_OK) != 0)
      kept += (kept.empty() ? "" : ":") + folder;
    start = end + 1;
  }
  return kept;
}

}  // namespace

bool sanitizer_variable(const char* name) {
  return starts_with(name, "NV_SANITIZER_") || starts_with(name, "NVIDIA_PROCESS_INJECTION_") ||
         starts_with(name, "NVIDIA-PROCESS-TRACKING-") || std::strcmp(name, "NVTX_INJECTION64_PATH") == 0 ||
         std::strcmp(name, "CUDA_INJECTION64_PATH") == 0 || std::strcmp(name, "LD_PRELOAD") == 0 ||
         std::strcmp(name, "PWD") == 0;
}

void hide_sanitizer_traces() {
  (void)task_markers_on();  // latched: the markers stay on for this runner once the variable is gone
  // Only under compute-sanitizer: Nsight Compute's profiles inject themselves through variables of
  // their own, which are not known to be safe to take away while it runs.
  if (!task_markers_on() && !std::getenv("NV_SANITIZER_INJECTION_PORT_BASE")) return;
  std::vector<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    const char* equals = std::strchr(*entry, '=');
    if (!equals) continue;
    const std::string name(*entry, static_cast<std::size_t>(equals - *entry));
    if (name == task_markers_variable || sanitizer_variable(name.c_str())) names.push_back(name);
  }
  for (const auto& name : names) ::unsetenv(name.c_str());
  if (const char* path = std::getenv("LD_LIBRARY_PATH")) {
    const std::string kept = without_sanitizer_folders(path);
    kept.empty() ? ::unsetenv("LD_LIBRARY_PATH") : ::setenv("LD_LIBRARY_PATH", kept.c_str(), 1);
  }
  // Read by the driver when the context was made; the harness gives every other runner EAGER and
  // the sanitized one LAZY (only the kernels a case launches are instrumented).
  ::setenv("CUDA_MODULE_LOADING", "EAGER", 1);
}

}  // namespace cugrade::runner
