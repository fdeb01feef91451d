#pragma once
// The ceilings performance is measured against (design.md §7): what cugrade-calibrate measured
// on one GPU with one driver, cached per GPU and driver so that it is measured once, not on
// every `cugrade check`.
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Measured ceilings of one GPU/driver.
struct Ceilings {
  double copy_gbps = 0.0;     ///< device-to-device cudaMemcpy, bytes read + written per second
  double read_gbps = 0.0;     ///< a read-only reduction kernel (int4 loads), bytes read per second (0: not measured)
  double sgemm_tflops = 0.0;  ///< cuBLAS SGEMM 4096³, true FP32 (no TF32)
  double dgemm_tflops = 0.0;  ///< cuBLAS DGEMM 4096³, FP64 (0: not measured)
  std::string gpu;            ///< the GPU's name, as the probe reports it
  std::string driver;         ///< the driver's CUDA version, e.g. "13.0"
  std::string measured_at;    ///< UTC, ISO 8601, e.g. "2026-03-01T12:00:00Z"
};

/// One line for people: "copy 4232 GB/s, read 3800 GB/s, SGEMM FP32 51.2 TFLOP/s, DGEMM FP64
/// 52.0 TFLOP/s", leaving out what was not measured.
std::string describe_ceilings(const Ceilings& ceilings);

/// $XDG_CACHE_HOME/cugrade, or ~/.cache/cugrade when XDG_CACHE_HOME is unset or empty.
std::filesystem::path default_cache_dir();

/// The cache file's name for a GPU and driver, "<gpu>-<driver>.json" with every character but
/// letters, digits, '.', '-' and '_' replaced by '_' (so a GPU name can never leave the folder).
std::string ceilings_file_name(const std::string& gpu, const std::string& driver);

/// The cached ceilings for this GPU and driver; fails when none were saved (run
/// `cugrade calibrate`) or the file is damaged.
Result<Ceilings> load_cached_ceilings(const std::filesystem::path& cache_dir,
                                      const std::string& gpu, const std::string& driver);

/// Saves `ceilings` under cache_dir (created if needed); returns the file written.
Result<std::filesystem::path> save_ceilings(const std::filesystem::path& cache_dir,
                                            const Ceilings& ceilings);

/// Parses what cugrade-calibrate printed; measured_at is left empty.
Result<Ceilings> parse_calibrate_output(const std::string& json);

/// Runs cugrade-calibrate (a few seconds on a GPU) and stamps the result with the time now.
Result<Ceilings> calibrate(ProcessRunner& runner, const std::filesystem::path& calibrate_binary);

}  // namespace cugrade
