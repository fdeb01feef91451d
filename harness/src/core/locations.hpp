#pragma once
// Where cugrade finds its files and tools: compiled-in defaults, each overridable by an
// environment variable so a moved build tree or an installed copy still works.
#include <filesystem>
#include <string>

namespace cugrade {

/// The folders and programs one cugrade run uses.
struct Locations {
  std::filesystem::path root;        ///< repository root: assignments/, reference/, templates/
  std::filesystem::path runner_dir;  ///< runners/<id>/libcugrade_runner_<id>.a, cugrade-probe, cugrade-calibrate
  std::filesystem::path cpu_runner_dir;  ///< cpu-runners/<id>/libcugrade_cpu_runner_<id>.a
  std::filesystem::path nvcc;        ///< the CUDA compiler ("nvcc" to search PATH)
  /// compute-sanitizer (the CUDA toolkit's): the one beside nvcc, else on PATH; empty when none.
  std::filesystem::path compute_sanitizer;

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

/// The defaults of this build, overridden by $CUGRADE_ROOT, $CUGRADE_RUNNER_DIR,
/// $CUGRADE_CPU_RUNNER_DIR, $CUGRADE_NVCC and $CUGRADE_COMPUTE_SANITIZER (empty: none).
Locations default_locations();

}  // namespace cugrade
