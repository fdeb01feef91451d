#include "batch/ungraded_report.hpp"

#include "core/config.hpp"
#include "core/utc_time.hpp"
#include "pipeline/case_plan.hpp"
#include "report/not_run.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {

namespace {

/// The parts every report has, with each case and (when timed) target marked not run.
GradeReport not_run_report(const Spec& spec, const CheckOptions& options, bool use_cuda, const std::string& why) {
  const bool timed = use_cuda && options.performance;
  GradeReport report;
  report.cugrade_version = config::version;
  report.assignment = spec.id;
  report.title = spec.title;
  report.started_at = utc_now_iso8601();
  for (const auto& file : options.submission) report.submission.push_back(file.filename().string());
  const std::vector<Case> cases = expand_cases(spec, options.course_secret);
  report.seed = cases.empty() ? 0 : cases.front().seed;
  report.environment.backend = use_cuda ? "cuda" : "cpu";
  report.build.outcome = Outcome::not_run;
  report.build.message = why;
  std::vector<Case> graded;
  for (const auto& c : cases)
    if (!spec.is_reference_only(c.step)) graded.push_back(c);
  mark_not_run(report, graded, timed ? spec.performance : std::vector<PerformanceTarget>{}, "not run: " + why);
  for (const auto& c : report.cases) report.max_score += c.max_points;
  for (const auto& p : report.performance) report.max_score += p.max_points;
  report.gradable = false;
  report.score = 0.0;
  return report;
}

}  // namespace

GradeReport unbuildable_report(const Spec& spec, const CheckOptions& options, bool use_cuda, const std::string& why) {
  GradeReport report = not_run_report(spec, options, use_cuda, why);
  report.outcome = Outcome::not_run;
  report.notes.push_back("not graded: " + why);
  return report;
}

GradeReport harness_failure_report(const Spec& spec, const CheckOptions& options, bool use_cuda, const std::string& why) {
  GradeReport report = not_run_report(spec, options, use_cuda, "cugrade failed on this submission");
  report.outcome = Outcome::harness_error;
  report.build.outcome = Outcome::harness_error;
  report.notes.push_back("not graded: a fault of cugrade's (this does not count against you): " + why);
  return report;
}

}  // namespace cugrade
