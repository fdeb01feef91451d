#pragma once
// What an assignment's self-test grades: its reference (full marks), its template (gradable, and
// failing), and each known-good and known-bad solution graders/<id>/solutions/expected.yaml lists,
// with the outcome, feedback and bounds each must get.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/locations.hpp"
#include "core/outcome.hpp"
#include "core/result.hpp"

namespace cugrade {

/// One submission the self-test grades and what it must get.
struct SelftestEntry {
  std::string label;                         ///< "reference", "template", "bad/no_bounds_check.cu"
  std::vector<std::filesystem::path> files;
  Outcome expected = Outcome::passed;        ///< the overall outcome it must get
  bool expect_full_marks = false;            ///< the reference: score == max_score
  bool reference_only_steps = false;         ///< the reference: its reference-only steps are checked too
  bool expect_failure = false;               ///< the template: anything but passed, yet gradable
  std::string feedback;                      ///< a substring the report's messages must contain
  std::string absent;                        ///< a substring no part of the report may contain (a leak)
  std::optional<double> score_at_most;       ///< the most points it may earn
  std::optional<double> performance_at_most; ///< the most performance points it may earn
  std::optional<double> seconds_at_most;     ///< the longest its check may take (a stall)
  bool flaky_on_gpu = false;                 ///< a race whose outcome the GPU may hide
  bool sanitizer = false;                    ///< on a GPU the outcome is compute-sanitizer's finding: not judged with --no-sanitizer
  /// Beside other entries on one GPU it would fail them (it takes the GPU's memory): graded with
  /// the GPU alone, after the shared work.
  bool alone = false;
  /// Step → the cause its performance diagnosis must name ("bank_conflicts"): checked on a GPU
  /// when performance and diagnosis are on (a slow known-bad solution's cause, issue 13).
  std::map<std::string, std::string> diagnosis;
  std::vector<std::string> backends{"cuda", "cpu"};  ///< where the expectation holds
};

/// The reference, the template and every entry of solutions/expected.yaml of assignment `id`.
Result<std::vector<SelftestEntry>> selftest_entries(const Locations& where, const std::string& id);

}  // namespace cugrade
