#include "batch/ungraded_report.hpp"

#include <ctime>

#include "core/config.hpp"
#include "pipeline/case_plan.hpp"
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
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  report.started_at = text;
  for (const auto& file : options.submission) report.submission.push_back(file.filename().string());
  const std::vector<Case> cases = expand_cases(spec, options.course_secret);
  report.seed = cases.empty() ? 0 : cases.front().seed;
  report.environment.backend = use_cuda ? "cuda" : "cpu";
  report.build.outcome = Outcome::not_run;
  report.build.message = why;
  for (const auto& c : cases) {
    if (spec.is_reference_only(c.step)) continue;
    report.cases.push_back({c.id, c.step, c.visibility, c.params, c.seed, Outcome::not_run, 0.0, c.points, 0.0,
                            "not run: " + why, {}});
    report.max_score += c.points;
  }
  if (timed)
    for (const auto& t : spec.performance) {
      PerformanceResult p;
      p.step = t.step;
      p.reference = t.reference;
      p.params = t.params;
      p.max_points = t.points;
      p.message = "not run: " + why;
      report.performance.push_back(std::move(p));
      report.max_score += t.points;
    }
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
