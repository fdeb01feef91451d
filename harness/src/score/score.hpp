#pragma once
// The rubric (design.md §5, §7): points per case and per performance target, the overall outcome,
// and the rule that a harness fault never costs a student points.
#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Linear credit in [0,1]: 0 at or below no_credit_at, 1 at or above full_credit_at.
double performance_credit(double ratio, double no_credit_at, double full_credit_at);

/// Fills points, max_points, score, max_score, outcome and gradable of a report from its
/// build, case and performance outcomes and the spec's rubric.
void score_report(GradeReport& report, const Spec& spec);

}  // namespace cugrade
