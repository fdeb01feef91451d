#pragma once
// PrairieLearn's external-grading results (/grade/results/results.json): a score in [0, 1],
// "gradable": false for a submission that did not build (no attempt is used up), a message and
// one test per case and performance target.
#include <nlohmann/json.hpp>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as PrairieLearn's results.json: score = cugrade's score / max_score in [0, 1];
/// not gradable (a failed build, or cugrade's own fault) gives "gradable": false with the
/// compiler's first errors as "format_errors". Hidden cases show only their outcome.
nlohmann::json report_to_prairielearn(const GradeReport& report);

}  // namespace cugrade
