#pragma once
// A made-up class for the class-summary tests and the browser test: twelve students whose
// reports vary in every way the summary shows (scores, outcomes, speeds, a compile error, a
// harness fault, an id that needs escaping).
#include <string>
#include <vector>

#include "report/class_summary_html.hpp"
#include "report/sample_report.hpp"

namespace cugrade::test {

/// A passing report of student number `k`: every case passed, both steps timed at a ratio that
/// grows with k, so that the class has a spread of speeds.
inline GradeReport sample_passing_report(int k) {
  GradeReport r = sample_report();
  for (CaseResult& c : r.cases) {
    c.outcome = Outcome::passed;
    c.points = c.max_points;
    c.message.clear();
    for (Comparison& comparison : c.comparisons) {
      comparison.wrong = comparison.nonfinite = 0;
      comparison.first.clear();
      comparison.pattern.clear();
    }
  }
  r.performance[0].ratio = 0.35 + 0.09 * k;
  r.performance[0].student->median_ms = 1.1 / r.performance[0].ratio;
  r.performance[0].points = std::min(5.0, 5.0 * r.performance[0].ratio);
  r.performance[1].ratio = 0.8 + 0.05 * k;
  r.performance[1].student = TimingStats{.median_ms = 61.5 / r.performance[1].ratio,
                                         .q1_ms = 61.0 / r.performance[1].ratio,
                                         .q3_ms = 62.0 / r.performance[1].ratio, .samples = 10};
  r.performance[1].flags.clear();
  r.performance[1].message.clear();
  r.performance[1].points = 3.0;
  r.outcome = Outcome::passed;
  r.score = 10.0 + r.performance[0].points;
  r.notes.clear();
  return r;
}

/// Twelve students: eight that pass with different speeds, two wrong answers, a compile error
/// and a harness fault; one id holds markup that must be escaped.
inline std::vector<ClassSummaryEntry> sample_class() {
  std::vector<ClassSummaryEntry> students;
  for (int k = 0; k < 8; ++k)
    students.push_back({"student" + std::to_string(k + 1), sample_passing_report(k),
                        "student" + std::to_string(k + 1) + "/report.html"});
  students.push_back({"<b>mallory</b>", sample_report(), "mallory/report.html"});
  GradeReport weak = sample_report();
  weak.score = 2.0;
  weak.performance.clear();
  students.push_back({"student10", weak, ""});
  students.push_back({"student11", compile_error_report(), "student11/report.html"});
  GradeReport fault = compile_error_report();
  fault.build.outcome = Outcome::harness_error;
  fault.outcome = Outcome::harness_error;
  fault.build.diagnostics.clear();
  fault.build.message = "the runner library for matmul is missing";
  students.push_back({"student12", fault, ""});
  return students;
}

}  // namespace cugrade::test
