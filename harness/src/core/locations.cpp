#include "core/locations.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "core/config.hpp"

namespace cugrade {
namespace {
std::filesystem::path from_env(const char* name, std::filesystem::path fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::filesystem::path(value) : fallback;
}

/// `name` found on $PATH (a bare name: "nvcc"); `name` itself where it is not there.
std::filesystem::path on_path(const std::filesystem::path& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::filesystem::path dir(rest.substr(0, colon));
    std::error_code ec;
    if (dir.is_absolute() && std::filesystem::is_regular_file(dir / name, ec) && ::access((dir / name).c_str(), X_OK) == 0)
      return dir / name;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return name;
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
  if (!where.nvcc.has_parent_path()) where.nvcc = on_path(where.nvcc);
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
