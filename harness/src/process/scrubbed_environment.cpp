// scrubbed_environment(): what a child process may see of ours.
#include <cstdlib>
#include <string_view>

#include "process/process_runner.hpp"

namespace cugrade {

namespace {

// Why a list and not "everything but secrets": a student's runner must not read the grader's
// tokens, course secrets or paths, and nvcc must not pick up a user's CFLAGS-like settings that
// would make one machine's build differ from another's. Each entry is here because something we
// run needs it.
constexpr std::string_view passed_through[] = {
    "PATH",                  // nvcc finds cicc/ptxas/the host compiler; we find nm
    "HOME",                  // some toolchains read ~ (nvcc's own config lookup)
    "TMPDIR",                // nvcc writes its intermediate files there
    "LD_LIBRARY_PATH",       // libcudart/libcuda where the toolkit is not in ld.so.conf
    "LIBRARY_PATH",          // the CPU backend links Boost.Context: found here when not in /usr/lib
    "CUDA_VISIBLE_DEVICES",  // which GPU the runner may use (set by the scheduler)
    "CUDA_DEVICE_ORDER",     // how that list is numbered
    "CUDA_HOME",             // toolkit location, read by nvcc wrappers
    "CUDA_PATH",             // the same, under its other name
    "CUDA_CACHE_PATH",       // where the JIT keeps PTX compiled for newer GPUs
};

}  // namespace

std::map<std::string, std::string> scrubbed_environment() {
  std::map<std::string, std::string> environment;
  for (std::string_view name : passed_through) {
    if (const char* value = std::getenv(std::string(name).c_str())) {
      environment.emplace(name, value);
    }
  }
  // A child without PATH could not find anything; the POSIX default is the least surprise.
  environment.try_emplace("PATH", "/usr/local/bin:/usr/bin:/bin");
  // LANG=C: compiler messages in English, the language our diagnostics parser reads.
  environment["LANG"] = "C";
  environment["LC_ALL"] = "C";
  return environment;
}

}  // namespace cugrade
