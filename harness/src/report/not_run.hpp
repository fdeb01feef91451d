#pragma once
// Cases and performance targets a report lists although they never ran (the build failed, the
// submission never reached it, the timing was left out): each is shown, worth its points, with
// why, so that a student sees what was not tried rather than a shorter report.
#include <string>
#include <vector>

#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Appends each of `cases` as a case result and each of `targets` as a performance result, none
/// run: outcome not_run, 0 of its points, `message` saying why.
void mark_not_run(GradeReport& report, const std::vector<Case>& cases, const std::vector<PerformanceTarget>& targets,
                  const std::string& message);

/// Whether `c` was left unrun after an earlier case of its runner hung or crashed ("not run: an
/// earlier case of this step timed out", run/run_job.cpp): a consequence, telling less than that case.
bool left_unrun(const CaseResult& c);

}  // namespace cugrade
