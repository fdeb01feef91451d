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

std::optional<InstalledLayout> installed_layout(const std::filesystem::path& program) {
  if (program.empty() || !program.is_absolute()) return std::nullopt;
  const std::filesystem::path prefix = program.parent_path().parent_path();
  InstalledLayout layout{prefix / config::installed_data_dir, prefix / config::installed_lib_dir};
  std::error_code ec;
  if (!std::filesystem::is_directory(layout.data_dir / "assignments", ec)) return std::nullopt;
  return layout;
}

std::filesystem::path running_program() {
  std::error_code ec;
  std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : program;
}

Locations default_locations() { return locations_for_program(running_program()); }

Locations locations_for_program(const std::filesystem::path& program) {
  Locations where;
  // Why the program's own place first: a package installs one cugrade for every user, with no
  // source tree; the compiled-in paths name the tree it was built in, which is not there.
  const std::optional<InstalledLayout> installed = installed_layout(program);
  where.root = from_env("CUGRADE_ROOT", installed ? installed->data_dir : config::source_root);
  where.runner_dir = from_env("CUGRADE_RUNNER_DIR", installed ? installed->lib_dir / "runners" : config::runner_dir);
  where.cpu_runner_dir = from_env("CUGRADE_CPU_RUNNER_DIR", where.runner_dir.parent_path() / "cpu-runners");
  where.cpu_include = from_env("CUGRADE_CPU_INCLUDE", installed ? installed->data_dir / "cpu-include"
                                                                : std::filesystem::path(config::cpu_include_dir));
  where.installed = installed.has_value();
  where.found_by = installed ? "installed beside " + program.string() : "this build's tree";
  std::string moved;
  for (const char* name : {"CUGRADE_ROOT", "CUGRADE_RUNNER_DIR", "CUGRADE_CPU_RUNNER_DIR", "CUGRADE_CPU_INCLUDE"})
    if (const char* value = std::getenv(name); value && *value) moved += std::string(moved.empty() ? "" : ", ") + "$" + name;
  if (!moved.empty()) where.found_by += " (moved by " + moved + ")";
  std::filesystem::path configured_nvcc = *config::nvcc ? config::nvcc : "nvcc";
  if (installed) {
    // An installed cugrade runs where the toolkit may lie elsewhere than on the machine that
    // built it: PATH's nvcc, else the toolkit's usual place.
    const char* path = std::getenv("PATH");
    std::error_code ec;
    configured_nvcc = find_program("nvcc", path ? path : "").empty() &&
                              std::filesystem::is_regular_file("/usr/local/cuda/bin/nvcc", ec)
                          ? std::filesystem::path("/usr/local/cuda/bin/nvcc")
                          : std::filesystem::path("nvcc");
  }
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
