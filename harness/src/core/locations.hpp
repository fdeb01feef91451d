#pragma once
// Where cugrade finds its files and tools: beside its own program when it is installed
// (<prefix>/bin/cugrade, <prefix>/share/cugrade, <prefix>/lib/cugrade), else the build tree's
// compiled-in paths; each overridable by an environment variable.
#include <filesystem>
#include <optional>
#include <string>

namespace cugrade {

/// The folders and programs one cugrade run uses.
struct Locations {
  std::filesystem::path root;        ///< repository root: assignments/, reference/, templates/
  std::filesystem::path runner_dir;  ///< runners/<id>/libcugrade_runner_<id>.a, cugrade-probe, cugrade-calibrate
  std::filesystem::path cpu_runner_dir;  ///< cpu-runners/<id>/libcugrade_cpu_runner_<id>.a
  std::filesystem::path cpu_include;     ///< the CPU backend's shim headers (cuda_runtime.h, ...)
  /// the CUDA compiler: the one configured in a build tree; installed, PATH's, else
  /// /usr/local/cuda/bin/nvcc ("nvcc" when neither is there)
  std::filesystem::path nvcc;
  /// compute-sanitizer (the CUDA toolkit's): the one beside nvcc, else on PATH; empty when none.
  std::filesystem::path compute_sanitizer;
  /// Where the folders above came from, in words for `cugrade doctor`: "installed beside
  /// /usr/bin/cugrade" or "this build's tree", and the environment variables that moved them.
  std::string found_by;
  bool installed = false;  ///< found beside an installed program (a package), not in a build tree

  std::filesystem::path assignments() const { return root / "assignments"; }
  std::filesystem::path templates() const { return root / "templates"; }
  std::filesystem::path references() const { return root / "reference"; }
  std::filesystem::path probe() const { return runner_dir / "cugrade-probe"; }
  std::filesystem::path calibrator() const { return runner_dir / "cugrade-calibrate"; }
  std::filesystem::path cuda_runner_library(const std::string& id) const {
    return runner_dir / id / ("libcugrade_runner_" + id + ".a");
  }
  std::filesystem::path cpu_runner_library(const std::string& id) const {
    return cpu_runner_dir / id / ("libcugrade_cpu_runner_" + id + ".a");
  }
  /// The reference runner of assignment `id`: the runner with the instructor's solutions and no
  /// student code, run in a process of its own (`cuda` false: the CPU backend's).
  std::filesystem::path reference_runner(const std::string& id, bool cuda) const {
    return (cuda ? runner_dir : cpu_runner_dir) / id / "reference-runner";
  }
};

/// An installed cugrade's folders: its data and its runners.
struct InstalledLayout {
  std::filesystem::path data_dir;  ///< <prefix>/share/cugrade: assignments/, reference/, templates/, graders/
  std::filesystem::path lib_dir;   ///< <prefix>/lib/cugrade: runners/, cpu-runners/
};

/// The installed layout around `program` (<prefix>/bin/cugrade, with <prefix>/share/cugrade
/// holding assignments/), or nullopt when `program` lies elsewhere (a build tree).
std::optional<InstalledLayout> installed_layout(const std::filesystem::path& program);

/// This process's program, as /proc/self/exe names it; empty when that cannot be read.
std::filesystem::path running_program();

/// Where this cugrade's files are: the installed layout beside the running program, else this
/// build's tree; each overridden by $CUGRADE_ROOT, $CUGRADE_RUNNER_DIR, $CUGRADE_CPU_RUNNER_DIR,
/// $CUGRADE_CPU_INCLUDE, $CUGRADE_NVCC and $CUGRADE_COMPUTE_SANITIZER (empty: none).
Locations default_locations();

/// `default_locations()` as if the running program were `program` (tests; the same lookups).
Locations locations_for_program(const std::filesystem::path& program);

}  // namespace cugrade
