#pragma once
// The reference's own error against the gold, as measured (`cugrade lint --measure-tolerance`,
// pipeline/reference_error.hpp) and kept beside the grader (graders/<id>/reference_error.yaml),
// and what lint says of each step's tolerance next to it: a tolerance many times the error a
// correct FP32 kernel makes lets arithmetic of lower precision pass (docs/assignment-spec.md,
// "Tolerances").
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The tolerance a measurement suggests: this many times the reference's largest error, so that
/// a correct kernel that sums in another order, contracts to FMA or uses rsqrtf (whose errors
/// are of the same kind, and at the sizes that decide it a few times the reference's at most)
/// still passes, where a kernel of lower precision does not.
inline constexpr double kToleranceMargin = 4.0;

/// The loosest tolerance lint accepts: this many times the reference's largest error (the
/// margin, and room for the written numbers to be round).
inline constexpr double kLoosestTolerance = 6.0;

/// The tightest tolerance lint accepts: this many times the reference's largest error.
inline constexpr double kTightestTolerance = 2.0;

/// The reference's error at one size of a step.
struct MeasuredSize {
  std::string params;          ///< params_to_string of the case: "N=1000,NT=4,nt=3"
  double share = 0.0;          ///< the largest share of the tolerance any output used (1: at its limit)
  double max_abs_error = 0.0;  ///< the largest |x − y| of any output
  bool operator==(const MeasuredSize&) const = default;
};

/// One step's measurements, against the tolerance they were taken with.
struct MeasuredStep {
  std::string step;
  double atol = 0.0, rtol = 0.0;  ///< the step's tolerance when measured
  std::vector<MeasuredSize> sizes;
  bool operator==(const MeasuredStep&) const = default;
};

/// One backend's measurement of an assignment's reference.
struct MeasuredBackend {
  std::string backend;  ///< "cpu" or "cuda"
  std::string where;    ///< the date and the machine: "2026-12-02, the CPU backend"
  std::vector<MeasuredStep> steps;
  /// The timed sizes it could not run in time ("naive M=2048,N=2048,K=2048"): not written to the
  /// file, only said.
  std::vector<std::string> not_measured = {};
  bool operator==(const MeasuredBackend&) const = default;
};

/// Every backend's measurement of one assignment.
struct MeasuredErrors {
  std::vector<MeasuredBackend> backends;
  bool operator==(const MeasuredErrors&) const = default;
};

/// Reads graders/<id>/reference_error.yaml; a file that does not exist is no measurement (empty).
Result<MeasuredErrors> load_measured_errors(const std::filesystem::path& path);

/// The file's text: a header saying what it is, then each backend's measurement.
std::string measured_errors_yaml(const MeasuredErrors& errors);

/// `errors` with `measured` in place of its backend's earlier measurement.
MeasuredErrors with_backend(MeasuredErrors errors, MeasuredBackend measured);

/// The largest share of `step`'s present tolerance the reference used in `measured`: its
/// measurements scaled where the tolerance was since scaled as a whole (atol and rtol by one
/// factor); nullopt where it was measured against a tolerance of another shape (stale).
std::optional<double> share_of_present(const MeasuredStep& measured, const Tolerance& present);

/// What lint says of the tolerances of `spec`'s student steps (a reference-only step is never
/// graded, and an exact step has nothing to scale): each problem as "file: step s: ...", where a
/// step was not measured, was measured against another tolerance, or its tolerance is looser than
/// kLoosestTolerance or tighter than kTightestTolerance times the reference's largest error on
/// any backend. Looser is not judged for a step whose performance target's size no backend
/// measured: the verification after timing compares two FP32 results there, with this tolerance,
/// and the error there is the largest. `file` names the measurement file in messages.
std::vector<std::string> tolerance_problems(const Spec& spec, const MeasuredErrors& errors, const std::string& file);

/// A line per step for lint's listing: its tolerance beside the reference's error on each backend
/// (its largest share, where, and how many times that the tolerance is).
std::vector<std::string> tolerance_lines(const Spec& spec, const MeasuredErrors& errors);

/// The tolerance kToleranceMargin times a measured largest share of `present` suggests: `present`
/// scaled by margin × share, rounded up to two significant digits.
Tolerance suggested_tolerance(const Tolerance& present, double share);

}  // namespace cugrade
