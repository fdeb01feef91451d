#pragma once
// The result of grading one submission: a plain struct that maps one-to-one onto the canonical
// JSON record (report/json_report.hpp). Every other report is rendered from it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// A compiler or linker message, pointing into the student's own file where possible.
struct Diagnostic {
  std::string file;      ///< as the student knows it ("vecadd.cu")
  int line = 0;
  int column = 0;
  std::string severity;  ///< "error" or "warning"
  std::string message;

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const Diagnostic&) const = default;
};

/// The build stage.
struct BuildResult {
  Outcome outcome = Outcome::not_run;  ///< passed, compile_error, link_error, forbidden_symbol, timeout, harness_error
  std::string arch;                    ///< "sm_90" (CUDA backend) or "cpu"
  double seconds = 0.0;                ///< wall time of the whole build
  std::vector<std::string> commands;   ///< each command line run, for reproduction
  std::vector<Diagnostic> diagnostics; ///< first errors (and warnings) in the student's files
  std::string message;                 ///< one paragraph for the student (e.g. the missing function)
  std::string log;                     ///< compiler output, capped

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const BuildResult&) const = default;
};

/// One element that failed the comparison.
struct Mismatch {
  std::int64_t index = 0;            ///< flat index
  std::vector<std::int64_t> coords;  ///< (row, column) for matrices, (i) for vectors
  double expected = 0.0;
  double actual = 0.0;

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const Mismatch&) const = default;
};

/// The comparison of one output array against the gold.
struct Comparison {
  std::string array;                ///< output name ("C")
  std::int64_t checked = 0;         ///< elements compared
  std::int64_t wrong = 0;           ///< elements outside tolerance (NaN/Inf included)
  std::int64_t nonfinite = 0;       ///< of which NaN or Inf (e.g. never written: outputs are poisoned)
  double max_abs_error = 0.0;       ///< over finite elements
  double max_rel_error = 0.0;
  std::vector<Mismatch> first;      ///< the first few mismatches in index order
  std::string pattern;              ///< one line: "only the last partial tile is wrong"

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const Comparison&) const = default;
};

/// One expanded case.
struct CaseResult {
  std::string id;
  std::string step;
  Visibility visibility = Visibility::visible;
  Params params;
  std::uint64_t seed = 0;
  Outcome outcome = Outcome::not_run;
  double points = 0.0;
  double max_points = 0.0;
  double seconds = 0.0;              ///< wall time of the case in the runner
  std::string message;               ///< for the student: what failed and a hint
  std::vector<Comparison> comparisons;  ///< one per output array (empty when it did not run)

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const CaseResult&) const = default;
};

/// Summary statistics of one set of timing samples (milliseconds).
struct TimingStats {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  double q1_ms = 0.0;           ///< 25th percentile
  double q3_ms = 0.0;           ///< 75th percentile
  double rse = 0.0;             ///< relative standard error of the mean
  std::size_t samples = 0;
  std::size_t wall_clock_samples = 0;  ///< samples where host wall time replaced the event time

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const TimingStats&) const = default;
};

/// Why a timed step is slower than the reference, read from Nsight Compute's counters of one call
/// of each (harness/src/diagnose/): advice only, it never changes points.
struct PerformanceDiagnosis {
  /// "uncoalesced_stores", "uncoalesced_loads", "bank_conflicts", "occupancy", "no_reuse",
  /// "work_per_thread", "divergence", "instructions", "none" (no counter stands out) or "unavailable" (no counters:
  /// `message` says why).
  std::string cause;
  std::string message;               ///< one sentence for the student
  std::vector<std::string> details;  ///< further findings, then the counters beside the reference's
  std::string kernel;                ///< the student's kernel it speaks of (the call's longest)
  std::string location;              ///< "matmul.cu:27" where the counters point to a line; else empty

  /// Field-by-field equality, for round-trip checks.
  bool operator==(const PerformanceDiagnosis&) const = default;
};

/// One performance target.
struct PerformanceResult {
  std::string step;
  std::string reference;            ///< the reference step it was timed against
  Params params;
  Outcome outcome = Outcome::not_run;  ///< passed when timed and verified; else why not
  std::optional<TimingStats> student;
  std::optional<TimingStats> reference_time;
  /// The reference timed alone, before the student's runner started (lock-step timing's baseline).
  std::optional<TimingStats> reference_alone;
  double ratio = 0.0;               ///< reference median / student median (1.0 = as fast)
  std::string rate_unit;            ///< "GB/s", "TFLOP/s", ...
  double student_rate = 0.0;
  double reference_rate = 0.0;
  std::optional<double> percent_of_ceiling;  ///< of the calibrated ceiling, when calibrated
  double points = 0.0;
  double max_points = 0.0;
  std::vector<std::string> flags;   ///< "below_roofline_floor", "timer_escaped", ...
  std::string message;
  /// Why it is slower, when it earned less than full credit and was profiled (check --no-diagnosis: never).
  std::optional<PerformanceDiagnosis> diagnosis;

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const PerformanceResult&) const = default;
};

/// Where it ran.
struct Environment {
  std::string backend;             ///< "cuda" or "cpu"
  std::string gpu;                 ///< "NVIDIA H100 80GB HBM3"
  std::string compute_capability;  ///< "9.0"
  std::string driver;              ///< "580.159.04"
  std::string cuda_runtime;        ///< "13.0"
  std::string nvcc;                ///< "13.0.88"
  std::string host;                ///< hostname
  int sm_clock_mhz = 0;
  int memory_clock_mhz = 0;

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const Environment&) const = default;
};

/// The whole result.
struct GradeReport {
  std::string cugrade_version;
  std::string assignment;
  std::string title;
  std::vector<std::string> submission;  ///< file names as given
  std::string submission_sha256;        ///< of the files' contents, in order
  std::uint64_t seed = 0;               ///< base seed of the run (cases carry their own)
  std::string started_at;               ///< ISO 8601 UTC
  Environment environment;
  BuildResult build;
  std::vector<CaseResult> cases;
  std::vector<PerformanceResult> performance;
  Outcome outcome = Outcome::not_run;   ///< passed only if every case passed
  bool gradable = false;                ///< false when the build failed (not the same as 0)
  double score = 0.0;
  double max_score = 0.0;
  std::vector<std::string> notes;       ///< e.g. "performance not graded on the CPU backend"

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const GradeReport&) const = default;
};

}  // namespace cugrade
