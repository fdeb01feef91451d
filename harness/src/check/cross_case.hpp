#pragma once
// What the failing cases of one step have in common (design.md §6): one line over all its cases,
// so a student sees "wrong only when K is not a multiple of 32" rather than ten separate failures.
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// One line over all cases of a step, from their params and outcomes: e.g. "wrong only at sizes
/// that are not a multiple of 32", "wrong only when K is not a multiple of 32", "wrong only at
/// the largest sizes (...)", "wrong at some seeds but right at others of the same size (...)";
/// "" when nothing stands out, or when no case passed or none failed. Cases that did not run
/// (not_run, harness_error) are left out. Where `results_change_between_runs` (a case of the step
/// was told so), a pattern by size asks no question about the grid or an overflow: neither makes
/// results change from run to run.
std::string cross_case_pattern(const std::vector<CaseResult>& cases_of_one_step,
                               bool results_change_between_runs = false);

}  // namespace cugrade
