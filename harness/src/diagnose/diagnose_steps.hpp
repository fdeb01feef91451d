#pragma once
// The diagnosis stage (issue 13): for each timed step that earned less than full credit, one
// call of the student's step and one of the reference's, at the timed size and on the timed
// inputs, profiled by Nsight Compute (profile_call.hpp: every such step of one side in one run
// of its runner), and the cause named from the two sets of counters (causes.hpp). Bounded: each profile has a time limit and the whole stage a
// budget; what does not fit, or where the counters cannot be had, gets a diagnosis that says so
// ("unavailable") and grading goes on. Advice only: no point depends on it.
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnose/counter_cache.hpp"
#include "job.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"
#include "run/lockstep_timing.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Where and how to diagnose.
struct DiagnosisRequest {
  std::filesystem::path ncu;               ///< find_ncu(); empty: every diagnosis says ncu is missing
  RunRequest student;                      ///< how the student's runner runs (its sandbox, environment, inputs)
  std::filesystem::path reference_runner;  ///< the reference's runner
  std::filesystem::path work_dir;          ///< a folder for the profiles (made and emptied here)
  std::string gpu;                         ///< names the GPU in the cache's keys ("NVIDIA H100 80GB HBM3")
  /// The student's staged sources (the build's src/, submission_<i>.cu) for the line a cause
  /// comes from; empty: no line is looked for.
  std::filesystem::path sources;
  /// The names the student gave those files, in order ("matmul.cu"): submission_<i>.cu is shown as the i-th.
  std::vector<std::string> source_names;
  /// The steps that may be profiled (the self-test's: those its expectation names a cause for);
  /// empty: every step below full credit.
  std::set<std::string> steps;
  /// Steps whose reference counters are profiled too, and only kept in the cache, whenever the
  /// reference is profiled for a step of this check (CheckOptions::reference_steps_ahead).
  std::set<std::string> reference_steps_ahead;
  double profile_timeout_s = 60.0;         ///< one profile, its runner's start included
  double budget_s = 180.0;                 ///< every profile of the check together
  std::function<void(const std::string&)> progress;  ///< status lines; may be empty
};

/// Whether a timed step earned less than full credit, as far as its samples tell (the
/// reference's median that counts, counted_reference, over the student's, below
/// `target.full_credit_at`); false when it did not run to its end or was not verified.
bool below_full_credit(const TimingOutcome& timed, const PerformanceTarget& target);

/// One diagnosis per task of `tasks` (timed as `timed`, graded by `targets`, all in the same
/// order): the cause for a step below full credit (of `request.steps`, where it names any),
/// nothing for the others. With `cache`, the
/// reference's counters of an earlier check on the same GPU serve again.
std::vector<std::optional<PerformanceDiagnosis>> diagnose_slow_steps(ProcessRunner& processes,
                                                                     const DiagnosisRequest& request,
                                                                     const std::vector<TimeTask>& tasks,
                                                                     const std::vector<TimingOutcome>& timed,
                                                                     const std::vector<PerformanceTarget>& targets,
                                                                     CounterCache* cache = nullptr);

/// "matmul.cu:27" for "submission_0.cu" and line 27 with `names` {"matmul.cu"}; other files keep their name.
std::string source_location(const std::string& file, int line, const std::vector<std::string>& names);

/// The diagnosis of a step whose counters could not be had: cause "unavailable", and `why`.
PerformanceDiagnosis unavailable_diagnosis(const std::string& why);

}  // namespace cugrade
