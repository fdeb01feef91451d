#pragma once
// What a batch's grades depend on besides the submission: the assignment, its spec, the hidden
// cases (the course secret) and the settings that change a grade. Kept in each student's record,
// so that a restarted batch keeps a result only where it would grade the same way now; another
// assignment, an edited spec, another secret, another backend or another build of cugrade (its
// graders, its runners) in the same --out grades again.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/locations.hpp"
#include "pipeline/check_submission.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// How a batch grades.
struct GradingSettings {
  std::string assignment;   ///< "matmul"
  std::string spec_sha256;  ///< of assignment.yaml's bytes ("" when it could not be read)
  /// "none", or "keyed:" and a fingerprint of the course secret (HMAC-SHA256 of a fixed label:
  /// it tells two secrets apart and gives nothing of either)
  std::string hidden;
  std::string backend;      ///< "cuda" or "cpu", as the batch runs
  bool performance = false; ///< timed (on the CUDA backend only)
  bool sanitizer = false;   ///< compute-sanitizer's pass (on the CUDA backend only)
  /// The cugrade that grades (cugrade_build()): "0.1.0 #" and a fingerprint of its build; ""
  /// in a record of a cugrade that kept none.
  std::string cugrade;

  /// Field-by-field equality.
  bool operator==(const GradingSettings&) const = default;
};

/// cugrade's version, " #" and the first 16 hex digits of a SHA-256 over what grades `assignment`
/// on that backend: the running program (the graders, checks and scoring are built into it), the
/// assignment's runner library and its reference runner (from `locations`). A rebuild that
/// changes any of them changes it; the same build gives the same one on any machine.
std::string cugrade_build(const Locations& locations, const std::string& assignment, bool use_cuda);

/// The settings of a batch of `spec` with `options` on the CUDA backend (`use_cuda`) or the CPU's,
/// by the cugrade whose files `locations` finds.
GradingSettings grading_settings(const Spec& spec, const CheckOptions& options, bool use_cuda,
                                 const Locations& locations);

/// The settings as JSON.
nlohmann::json settings_to_json(const GradingSettings& settings);

/// Reads what settings_to_json wrote; nullopt when `json` is not that.
std::optional<GradingSettings> settings_from_json(const nlohmann::json& json);

/// What differs from `before` to `now`, in words ("the assignment (vecadd, now reduction), the
/// hidden cases (none, now keyed by a course secret)"); empty when nothing does. `before` absent:
/// a record of an earlier cugrade, which kept no settings.
std::string settings_changed(const std::optional<GradingSettings>& before, const GradingSettings& now);

}  // namespace cugrade
