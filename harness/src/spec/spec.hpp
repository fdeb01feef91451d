#pragma once
// An assignment as declared in assignments/<id>/assignment.yaml (data only; see
// docs/assignment-spec.md for the format). Loading is strict: spec_loader.hpp.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cugrade {

/// Where a value came from in a YAML file, for messages of the form file:line:column.
struct SourceLocation {
  std::string file;
  int line = 0;    ///< 1-based; 0 when unknown
  int column = 0;  ///< 1-based; 0 when unknown
};

/// Integer parameters of one case, by name: {"M": 65, "N": 33, "K": 47}.
using Params = std::map<std::string, std::int64_t>;

/// Element-wise acceptance: |x − y| ≤ atol + rtol·|expected|; NaN and Inf never pass.
struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  std::string reason;  ///< why these numbers (e.g. "K-term FP32 dot product")
};

/// One lecture step a student implements: an entry point declared in interface.cuh.
struct Step {
  std::string name;         ///< "naive", "tiled"
  std::string entry;        ///< the function in interface.cuh: "matmul_naive"
  std::string description;  ///< one line for reports
  Tolerance tolerance;
  /// A step only the course's reference implements (a lecture kernel shown for comparison, a
  /// double-precision variant, a stretch kernel): its entry is declared in
  /// reference/<id>/reference_only.cuh, not in interface.cuh; students are never graded on it,
  /// and `cugrade selftest`'s reference entry checks it by calling the reference's function.
  bool reference_only = false;
  /// `host_work: allowed`: the lecture computes part of the result on the host, so a call whose
  /// result is not a kernel's work (runtime/host_work.hpp) is not failed for it.
  bool host_work_allowed = false;
  SourceLocation where;
};

/// Whether students see a case (and its inputs) or only its outcome.
enum class Visibility { visible, hidden };

/// A block of `cases:` in the spec; expands to steps × sizes × seeds.
struct CaseGroup {
  std::vector<std::string> steps;        ///< empty = every step
  std::vector<Params> sizes;
  std::vector<std::uint64_t> seeds{1};   ///< hidden groups mix these with the course secret
  double points = 1.0;                   ///< per expanded case
  Visibility visibility = Visibility::visible;
  /// Also run these cases under compute-sanitizer on the CUDA backend (`sanitize:`; default:
  /// the visible groups, whose sizes are small).
  bool sanitize = true;
  SourceLocation where;
};

/// A performance target: the student's step timed against a reference step, same run, same GPU.
struct PerformanceTarget {
  std::string step;            ///< the student's step being timed
  std::string reference;       ///< the reference step it is compared with (default: same name)
  Params params;               ///< the size it is timed at
  double full_credit_at = 0.9; ///< speed ratio (reference time / student time) for full points
  double no_credit_at = 0.5;   ///< speed ratio at or below which it earns nothing; linear between
  double points = 0.0;
  SourceLocation where;
};

/// Which measured ceiling a bench table's "% of ceiling" column divides by (device/ceilings.hpp).
enum class BenchCeiling {
  by_unit,  ///< the default: copy bandwidth for GB/s, SGEMM for TFLOP/s, none for other units
  copy,     ///< device-to-device copy bandwidth (bytes read + written)
  read,     ///< read-only bandwidth (a reduction's bytes read)
  sgemm,    ///< cuBLAS SGEMM, FP32
  dgemm,    ///< cuBLAS DGEMM, FP64
  none,     ///< no percentage column
};

/// One row of a lecture table: the reference of `step`, beside the lecture's figure for it.
struct BenchRow {
  std::string step;     ///< a student's step or a reference-only one; its reference is timed
  std::string label;    ///< the lecture's name for the kernel ("SMEM-1"); default: the step name
  std::string lecture;  ///< the lecture's figure as printed ("150 ms"); empty when it has none
  SourceLocation where;
};

/// One lecture table that `cugrade bench` reproduces: every row's reference at one size.
struct BenchTable {
  std::string title;    ///< its heading (the `table:` key): "float, N = 2048"
  std::string lecture;  ///< whose figures the rows' `lecture` hold; empty when none do
  Params params;        ///< the size every row is timed at
  bool rate = true;     ///< time the grader's gold on one CPU core for the Rate column
  BenchCeiling ceiling = BenchCeiling::by_unit;
  std::vector<BenchRow> rows;
  SourceLocation where;
};

/// Resource limits for building and running one submission.
struct Limits {
  double build_timeout_s = 60.0;          ///< per nvcc invocation
  double run_timeout_s = 10.0;            ///< per case (and per timed step)
  /// Per case under compute-sanitizer, which slows kernels tenfold and more; a case that takes
  /// longer is left unchecked by it (a note, no points lost).
  double sanitizer_timeout_s = 60.0;
  std::size_t output_limit_bytes = 65536; ///< stdout+stderr of the runner before it is killed
  std::uint64_t submission_file_bytes = std::uint64_t{1} << 20;  ///< any one file of a submission
  std::uint64_t submission_bytes = std::uint64_t{4} << 20;       ///< a submission's files together
  /// Host memory a CPU-backend runner's data may take (its worker threads' own reserve is added).
  std::uint64_t host_memory_bytes = std::uint64_t{1} << 30;
  /// GPU memory a CUDA runner may hold (its own buffers and the submission's allocations): an
  /// allocation past it fails in that runner (runtime/memory_ledger.hpp).
  std::uint64_t gpu_memory_bytes = std::uint64_t{4} << 30;
};

/// A whole assignment spec.
struct Spec {
  std::string id;                     ///< "matmul"; equals the folder name
  std::string title;
  std::vector<std::string> lectures;  ///< seeds this assignment is drawn from
  std::filesystem::path dir;          ///< assignments/<id>
  std::filesystem::path interface_file;  ///< absolute path of interface.cuh
  std::filesystem::path statement_file;  ///< absolute path of README.md
  /// Absolute path of reference/<id>/reference_only.cuh (a sibling folder of assignments/);
  /// empty when no step is reference-only.
  std::filesystem::path reference_only_file;
  std::vector<Step> steps;
  std::vector<CaseGroup> cases;
  std::vector<PerformanceTarget> performance;
  std::vector<BenchTable> bench;  ///< the lecture tables `cugrade bench` prints
  Limits limits;
  /// Libraries submissions may use besides the C and C++ libraries and the CUDA runtime
  /// (`allowed_libraries:`, spec/libraries.hpp); empty: none.
  std::vector<std::string> allowed_libraries;
  SourceLocation where;  ///< the file itself

  /// The step with this name, or nullptr.
  const Step* find_step(const std::string& name) const;
  /// True when `name` is a step declared `reference_only: true` (false for unknown names).
  bool is_reference_only(const std::string& name) const;
};

/// One concrete test case after expansion.
struct Case {
  std::string id;        ///< "naive/M=65,N=33,K=47/seed=1" (hidden: "hidden/naive/3")
  std::string step;
  Params params;
  std::uint64_t seed = 0;
  double points = 0.0;
  Visibility visibility = Visibility::visible;
  bool sanitize = false;  ///< also run under compute-sanitizer (CUDA backend)
};

/// "M=65,N=33,K=47": params in a stable, readable form.
std::string params_to_string(const Params& params);

}  // namespace cugrade
