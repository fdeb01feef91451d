#include "core/locations.hpp"

#include <cstdlib>

#include "core/config.hpp"
#include "core/program_path.hpp"

namespace cugrade {
namespace {
std::filesystem::path from_env(const char* name, std::filesystem::path fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::filesystem::path(value) : fallback;
}

/// $CUGRADE_COMPUTE_SANITIZER when set (empty turns it off), else the toolkit's beside nvcc
/// (bin/compute-sanitizer, or the compute-sanitizer/ folder a toolkit keeps it in), else PATH's.
std::filesystem::path find_compute_sanitizer(const std::filesystem::path& nvcc) {
  if (const char* value = std::getenv("CUGRADE_COMPUTE_SANITIZER")) return value;
  std::error_code ec;
  if (nvcc.is_absolute()) {
    const auto toolkit = nvcc.parent_path().parent_path();
    // The program itself first: bin/compute-sanitizer may be a script that starts it.
    for (const auto& candidate : {toolkit / "compute-sanitizer" / "compute-sanitizer", nvcc.parent_path() / "compute-sanitizer"})
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  }
  const char* path = std::getenv("PATH");
  return find_program("compute-sanitizer", path ? path : "");
}
}  // namespace

Locations default_locations() {
  Locations where;
  where.root = from_env("CUGRADE_ROOT", config::source_root);
  where.runner_dir = from_env("CUGRADE_RUNNER_DIR", config::runner_dir);
  where.cpu_runner_dir = from_env("CUGRADE_CPU_RUNNER_DIR", where.runner_dir.parent_path() / "cpu-runners");
  const std::filesystem::path configured_nvcc = *config::nvcc ? config::nvcc : "nvcc";
  where.nvcc = from_env("CUGRADE_NVCC", configured_nvcc);
  // A bare name is looked up once, here: the toolkit's folders (its headers, which a compile
  // may read; the sandbox's bind) are found from where nvcc lies.
  if (!where.nvcc.has_parent_path()) {
    const char* path = std::getenv("PATH");
    if (auto found = find_program(where.nvcc.string(), path ? path : ""); !found.empty()) where.nvcc = found;
  }
  // Why the real path: a toolkit reached through links (/usr/local/cuda -> /etc/alternatives/cuda
  // -> /usr/local/cuda-13.0) may leave the chain outside what a sealed compile can see; nvcc
  // finds the rest of its toolkit from where it really lies.
  std::error_code ec;
  if (where.nvcc.is_absolute()) {
    const auto real = std::filesystem::canonical(where.nvcc, ec);
    if (!ec) where.nvcc = real;
  }
  where.compute_sanitizer = find_compute_sanitizer(where.nvcc);
  return where;
}

}  // namespace cugrade
