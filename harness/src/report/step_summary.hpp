#pragma once
// The report in brief, step by step: the rows that open (on the console, close) every
// human-readable report, and the cases of a step gathered by how they failed, so that cases
// failing the same way read as one line with their sizes listed, not as one line each.
#include <optional>
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// One step of the assignment in one row.
struct StepSummary {
  std::string step;
  Outcome status = Outcome::passed;  ///< passed, the most telling failure's outcome, or not_run
  std::size_t passed = 0;            ///< cases that passed
  std::size_t cases = 0;             ///< cases of the step
  std::string diagnosis;             ///< one line: "all passed", what went wrong, "not run: ..."
  double points = 0.0;               ///< correctness points earned
  double max_points = 0.0;
  /// Performance points earned and their maximum; none when no target of this step was graded.
  std::optional<double> performance_points, performance_max;
};

/// One row per step, in the order the report lists the steps' cases (the spec's order), then
/// steps that only have performance targets. The diagnosis: a mistake model's message, else the
/// failure most cases share, else a hidden case's outcome. After a failed build every step is
/// "not run".
std::vector<StepSummary> summarize_steps(const GradeReport& report);

/// Cases of one step with the same outcome that failed the same way (or all passed).
struct SimilarCases {
  std::string step;
  Outcome outcome = Outcome::passed;
  bool hidden = false;                    ///< hidden cases are gathered apart and never described
  std::vector<const CaseResult*> cases;   ///< in report order; points into the report
  std::string headline;                   ///< the first case's one-line account ("" when passed or hidden)
  double points = 0.0, max_points = 0.0;  ///< summed over the cases
};

/// A step's cases gathered: passed ones first (visible, then hidden), then failures in the order
/// their first case appears. Failures are alike when outcome and headline are the same once
/// numbers (sizes, counts, indices, values) are set aside.
std::vector<SimilarCases> gather_cases(const GradeReport& report, const std::string& step);

/// What one case tells in one line: a mistake model's or the harness's message, else a wrong
/// array's pattern, else its counts; "" for a passed or a hidden case.
std::string case_headline(const CaseResult& c);

/// "K=47,M=65,N=33 seed=1" for one case, "14 cases (n = 1, 7, 1024, …)" for several visible
/// ones (each size once, at most six), "hidden case" / "3 hidden cases".
std::string similar_cases_label(const SimilarCases& group);

/// "wrong_answer in 14 cases (n = 1, 7, 1024, …): every element is NaN or Inf …": a failed
/// group in one line (a hidden group names only its outcome and count).
std::string similar_cases_line(const SimilarCases& group);

/// What a failed visible group tells the student, one line each: its one case's details
/// (case_detail_lines), or for several cases their shared account and, for wrong answers, the
/// first case's comparisons as an example; nothing for a passed or hidden group.
std::vector<std::string> similar_cases_details(const SimilarCases& group);

/// `text`'s first line, at most `width` characters on screen (cut with "…").
std::string one_line(std::string_view text, std::size_t width);

}  // namespace cugrade
