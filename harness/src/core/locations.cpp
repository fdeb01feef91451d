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
  return where;
}

}  // namespace cugrade
