#include "score/score.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade {
namespace {

// Flags that mean a timing cannot be trusted (an impossible time, or a run whose output was
// wrong while timed): such a result earns no performance points, however fast it looks.
constexpr std::string_view kDisqualifyingFlags[] = {"below_roofline_floor", "output_mismatch"};

void add_note(GradeReport& report, std::string note) {
  // Scoring may run more than once on the same report (e.g. a re-score after a rubric fix).
  if (std::find(report.notes.begin(), report.notes.end(), note) == report.notes.end())
    report.notes.push_back(std::move(note));
}

std::string with_reason(std::string text, const std::string& message) {
  return message.empty() ? text : text + ": " + message;
}

bool is_graded(Outcome outcome) { return is_student_outcome(outcome); }

/// A build that failed for one of the student's reasons keeps its outcome; anything else is ours.
Outcome build_failure_outcome(Outcome build) {
  switch (build) {
    case Outcome::compile_error:
    case Outcome::link_error:
    case Outcome::forbidden_symbol:
    case Outcome::timeout:
      return build;
    default:
      return Outcome::harness_error;
  }
}

std::string_view effective_reference(const std::string& step, const std::string& reference) {
  return reference.empty() ? std::string_view(step) : std::string_view(reference);
}

/// The target a result was timed for: same step and reference; the same size where several match.
const PerformanceTarget* find_target(const Spec& spec, const PerformanceResult& result) {
  const PerformanceTarget* first = nullptr;
  for (const PerformanceTarget& target : spec.performance) {
    if (target.step != result.step ||
        effective_reference(target.step, target.reference) !=
            effective_reference(result.step, result.reference))
      continue;
    if (target.params == result.params) return &target;
    if (first == nullptr) first = &target;
  }
  return first;
}

/// How the correctness cases of one step went: all passed, one failed, or one was not graded.
enum class StepState { verified, failed, unverified };

StepState step_state(const GradeReport& report, const std::string& step) {
  StepState state = StepState::verified;
  for (const CaseResult& c : report.cases) {
    if (c.step != step || c.outcome == Outcome::passed) continue;
    if (is_graded(c.outcome)) return StepState::failed;
    state = StepState::unverified;
  }
  return state;
}

bool has_disqualifying_flag(const PerformanceResult& result) {
  return std::any_of(result.flags.begin(), result.flags.end(), [](const std::string& flag) {
    return std::find(std::begin(kDisqualifyingFlags), std::end(kDisqualifyingFlags), flag) !=
           std::end(kDisqualifyingFlags);
  });
}

void score_failed_build(GradeReport& report, const Spec& spec) {
  report.gradable = false;
  report.outcome = build_failure_outcome(report.build.outcome);
  for (CaseResult& c : report.cases) c.points = 0.0;
  for (PerformanceResult& p : report.performance) {
    p.points = 0.0;
    if (const PerformanceTarget* target = find_target(spec, p)) p.max_points = target->points;
  }
  report.score = 0.0;
  // The same maximum a successful build would have had in this run (the cases and targets the
  // pipeline listed), so a compile error does not appear to raise the stakes.
  for (const CaseResult& c : report.cases) report.max_score += c.max_points;
  for (const PerformanceResult& p : report.performance) report.max_score += p.max_points;
  if (report.outcome == Outcome::harness_error)
    add_note(report, with_reason("not graded: cugrade could not build the submission for a "
                                 "reason of its own (this does not count against you)",
                                 report.build.message));
}

void score_cases(GradeReport& report) {
  for (CaseResult& c : report.cases) {
    if (!is_graded(c.outcome)) {
      c.points = 0.0;
      add_note(report, with_reason(fmt::format("case {} not graded ({})", c.id, to_string(c.outcome)),
                                   c.message));
      continue;
    }
    c.points = c.outcome == Outcome::passed ? c.max_points : 0.0;
    report.score += c.points;
    report.max_score += c.max_points;
  }
}

void score_performance(GradeReport& report, const Spec& spec) {
  for (PerformanceResult& p : report.performance) {
    p.points = 0.0;
    const PerformanceTarget* target = find_target(spec, p);
    if (target == nullptr) {
      add_note(report, fmt::format("performance of step {} not graded: the spec has no target for "
                                   "it (harness error)", p.step));
      continue;
    }
    p.max_points = target->points;
    if (p.outcome == Outcome::not_run) {
      add_note(report, with_reason("performance not graded", p.message));
      continue;
    }
    if (p.outcome == Outcome::harness_error) {
      add_note(report, with_reason(fmt::format("performance of step {} not graded (harness_error)",
                                               p.step), p.message));
      continue;
    }
    const StepState state = step_state(report, p.step);
    if (state == StepState::unverified) {
      // Its correctness could not be established through no fault of the student: leave it out.
      add_note(report, fmt::format("performance of step {} not graded: some of its correctness "
                                   "cases were not graded", p.step));
      continue;
    }
    // A fast wrong kernel, or an impossible time, earns nothing; say why, or 0 points next to a
    // good ratio would puzzle the student.
    if (p.outcome == Outcome::passed && state == StepState::failed)
      add_note(report, fmt::format("performance of step {} earns no points until every case of "
                                   "that step passes", p.step));
    else if (p.outcome == Outcome::passed && has_disqualifying_flag(p))
      add_note(report, fmt::format("performance of step {} earns no points: its timing cannot be "
                                   "trusted ({})", p.step, fmt::join(p.flags, ", ")));
    else if (p.outcome == Outcome::passed)
      p.points = p.max_points * performance_credit(p.ratio, target->no_credit_at,
                                                   target->full_credit_at);
    report.score += p.points;
    report.max_score += p.max_points;
  }
}

Outcome overall_outcome(const GradeReport& report) {
  const auto harness_fault = [](const auto& part) { return part.outcome == Outcome::harness_error; };
  if (std::any_of(report.cases.begin(), report.cases.end(), harness_fault) ||
      std::any_of(report.performance.begin(), report.performance.end(), harness_fault))
    return Outcome::harness_error;
  for (const CaseResult& c : report.cases)
    if (c.outcome != Outcome::passed) return c.outcome;
  return Outcome::passed;
}

}  // namespace

double performance_credit(double ratio, double no_credit_at, double full_credit_at) {
  if (std::isnan(ratio) || ratio <= no_credit_at) return 0.0;
  if (ratio >= full_credit_at) return 1.0;
  return (ratio - no_credit_at) / (full_credit_at - no_credit_at);
}

void score_report(GradeReport& report, const Spec& spec) {
  report.score = 0.0;
  report.max_score = 0.0;
  if (report.build.outcome != Outcome::passed) {
    score_failed_build(report, spec);
    return;
  }
  report.gradable = true;
  score_cases(report);
  score_performance(report, spec);
  report.outcome = overall_outcome(report);
}

}  // namespace cugrade
