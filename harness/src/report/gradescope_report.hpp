#pragma once
// Gradescope's autograder results (results.json, written to /autograder/results/ by
// run_autograder): a total score, one test per case, the build and each performance target.
#include <nlohmann/json.hpp>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as Gradescope's results.json. The top-level "score" is cugrade's score (it
/// overrides the tests' sum, so harness faults that cost nothing stay free); each test has
/// score, max_score, status ("passed"/"failed"), name, output and visibility. Hidden cases are
/// "after_published" and show only their outcome: no size, seed, values or message.
nlohmann::json report_to_gradescope(const GradeReport& report);

}  // namespace cugrade
