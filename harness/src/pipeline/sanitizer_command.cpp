// How compute-sanitizer is run: which tools a submission's sources call for, and each tool's
// command line (pipeline/sanitizer_pass.hpp declares them).
#include <atomic>

#include "core/atomic_file.hpp"
#include "pipeline/sanitizer_pass.hpp"
#include "pipeline/schedule_race.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Reports shown per runner process: a few cases' worth (a bad kernel reports once per thread
/// that goes wrong, up to a few hundred times).
constexpr int kPrintLimit = 1000;

}  // namespace

std::vector<std::string> sanitizer_tools(const std::vector<fs::path>& sources) {
  std::string all;
  for (const auto& file : sources)
    if (auto text = read_whole_file(file)) all += *text;
  const auto mentions = [&](std::string_view word) { return all.find(word) != std::string::npos; };
  std::vector<std::string> tools{"memcheck"};
  if (mentions_shared_memory(all)) tools.push_back("racecheck");
  // cudaMalloc, cudaMallocAsync, cudaMallocManaged, malloc in a kernel, cuMemAlloc, thrust's.
  if (mentions("alloc") || mentions("Alloc") || mentions("device_vector") || mentions("cuMemCreate"))
    tools.push_back("initcheck");
  if (mentions("__syncwarp") || mentions("_sync(") || mentions("cooperative_groups")) tools.push_back("synccheck");
  return tools;
}

int next_sanitizer_port() {
  static std::atomic<int> next{0};
  return 49152 + 100 * (next++ % 158);
}

std::vector<std::string> sanitizer_command(const fs::path& sanitizer, const std::string& tool, int port) {
  std::vector<std::string> argv{sanitizer.string(), "--tool", tool, "--print-limit", std::to_string(kPrintLimit),
                                "--show-backtrace", "no", "--error-exitcode", "0"};
  if (port > 0) argv.insert(argv.end(), {"--port", std::to_string(port)});
  // The runner only: a process the student's code forks (a daemon left behind) is not followed,
  // so the tool ends with the runner instead of waiting out the daemon (a vecadd attack's 20 s
  // daemon held memcheck and initcheck 22 s each on an H200). A forked child cannot use the
  // runner's CUDA context anyway.
  argv.insert(argv.end(), {"--target-processes", "application-only"});
  // A bad access then ends only its kernel, not the CUDA context: the case finishes and the next
  // one runs in the same runner, where otherwise each bad case would cost a runner's start.
  if (tool == "memcheck") argv.insert(argv.end(), {"--destroy-on-device-error", "kernel"});
  return argv;
}

}  // namespace cugrade
