#include "pipeline/selftest_verdict.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/json_report.hpp"

namespace cugrade {

namespace {
/// Every message of a report, for the feedback check.
std::string all_messages(const GradeReport& report) {
  std::string text = report.build.message + "\n";
  for (const auto& d : report.build.diagnostics) text += d.message + "\n";
  for (const auto& c : report.cases) {
    text += c.message + "\n";
    for (const auto& cmp : c.comparisons) text += cmp.pattern + "\n";
  }
  for (const auto& p : report.performance) {
    text += p.message + "\n";
    for (const auto& f : p.flags) text += f + "\n";
  }
  for (const auto& n : report.notes) text += n + "\n";
  return text;
}

/// The limits every entry is held to, whatever its outcome: no more points than it may earn,
/// nothing in the report it must not say, no longer than it may take.
std::string judge_limits(const SelftestEntry& entry, const GradeReport& report, double seconds) {
  if (entry.score_at_most && report.score > *entry.score_at_most + 1e-9)
    return fmt::format("earned {:g} points, at most {:g} allowed", report.score, *entry.score_at_most);
  double performance = 0.0;
  for (const auto& p : report.performance) performance += p.points;
  if (entry.performance_at_most && performance > *entry.performance_at_most + 1e-9)
    return fmt::format("earned {:g} performance points, at most {:g} allowed", performance, *entry.performance_at_most);
  if (!entry.absent.empty() && report_to_json(report, true).dump().find(entry.absent) != std::string::npos)
    return "the report contains \"" + entry.absent + "\"";
  if (entry.seconds_at_most && seconds > *entry.seconds_at_most)
    return fmt::format("took {:.0f} s, at most {:g} s allowed", seconds, *entry.seconds_at_most);
  return "";
}

/// Does each step the entry names get the diagnosis it must? (On a GPU, with performance and
/// diagnosis on; elsewhere nothing is diagnosed.)
std::string judge_diagnosis(const SelftestEntry& entry, const GradeReport& report) {
  for (const auto& [step, cause] : entry.diagnosis) {
    const auto p = std::find_if(report.performance.begin(), report.performance.end(),
                                [&](const PerformanceResult& r) { return r.step == step; });
    if (p == report.performance.end()) return "no performance result for step " + step;
    if (!p->diagnosis)
      return fmt::format("step {} got no diagnosis (ratio {:.2f}, {:g} of {:g} points)", step, p->ratio, p->points,
                         p->max_points);
    if (p->diagnosis->cause == "unavailable")  // the profiler, not the grading: say how to go on without it
      return fmt::format("step {} could not be diagnosed ({}); where the profiler cannot run, use --no-diagnosis", step,
                         p->diagnosis->message);
    if (p->diagnosis->cause != cause)
      return fmt::format("the diagnosis of step {} names {}, not {}: {}", step, p->diagnosis->cause, cause,
                         p->diagnosis->message);
  }
  return "";
}

/// " (what went wrong)" for a report that is a fault of cugrade's, so that the self-test's line
/// says it: the build's message where the build was the harness's error, else the last note.
std::string harness_fault(const GradeReport& report) {
  if (report.outcome != Outcome::harness_error) return "";
  std::string why = report.build.outcome == Outcome::harness_error && !report.build.message.empty() ? report.build.message
                    : report.notes.empty()                                                        ? ""
                                                                                                  : report.notes.back();
  if (why.empty()) return "";
  if (why.size() > 300) why = why.substr(0, 300) + "...";
  return " (" + why + ")";
}

/// Does the report meet the entry's expectation (its outcome, its feedback)?
std::string judge(const SelftestEntry& entry, const GradeReport& report, const std::string& backend) {
  if (entry.expect_full_marks) {
    if (report.outcome != Outcome::passed) return "expected passed, got " + std::string(to_string(report.outcome));
    if (report.score + 1e-9 < report.max_score)
      return "expected full marks, got " + std::to_string(report.score) + " / " + std::to_string(report.max_score);
    return "";
  }
  if (entry.expect_failure) {
    if (report.outcome == Outcome::passed) return "the template passed; it must fail";
    if (report.outcome == Outcome::harness_error) return "the template got harness_error" + harness_fault(report);
    if (!report.gradable) return "the template does not build (" + report.build.message + ")";
    return "";
  }
  // A GPU may hide a flaky bug, or show it without the diagnosis the CPU backend gives (which
  // is what `feedback` names): on the GPU any outcome a student can get, and any message, will
  // do; a fault of cugrade's never does.
  if (entry.flaky_on_gpu && backend == "cuda")
    return report.outcome == Outcome::harness_error ? "got harness_error" + harness_fault(report) : "";
  if (report.outcome != entry.expected)
    return "expected " + std::string(to_string(entry.expected)) + ", got " + std::string(to_string(report.outcome)) +
           harness_fault(report);
  if (!entry.feedback.empty() && all_messages(report).find(entry.feedback) == std::string::npos)
    return "the feedback does not contain \"" + entry.feedback + "\"";
  return "";
}

}  // namespace

std::string first_failure(const GradeReport& report) {
  const auto said = [](const std::string& where, Outcome outcome, const std::string& message) {
    return where + ": " + (message.empty() ? std::string(to_string(outcome)) : message);
  };
  std::string what;
  for (const auto& c : report.cases)
    if (c.outcome != Outcome::passed && c.outcome != Outcome::not_run && what.empty()) what = said(c.id, c.outcome, c.message);
  for (const auto& p : report.performance)
    if (p.outcome != Outcome::passed && p.outcome != Outcome::not_run && what.empty())
      what = said(p.step, p.outcome, p.message);
  if (what.empty() && !report.notes.empty()) what = report.notes.back();
  if (what.size() > 200) what = what.substr(0, 200) + "...";
  return what;
}

double own_seconds(const StageSeconds& spent) {
  return spent.build + spent.inputs + spent.run + spent.timing + spent.diagnosis;
}

std::string selftest_verdict(const SelftestEntry& entry, const GradeReport& report, const StageSeconds& spent,
                             const CheckOptions& options) {
  const std::string& backend = report.environment.backend;
  std::string why = judge(entry, report, backend);
  if (why.empty()) why = judge_limits(entry, report, own_seconds(spent));
  if (why.empty() && backend == "cuda" && options.performance && options.diagnosis) why = judge_diagnosis(entry, report);
  return why;
}

}  // namespace cugrade
