#pragma once
// The report as JUnit XML, the format CI servers and test dashboards read: one <testsuite> for
// the build and one per step (its cases and its performance targets), a <failure> for what the
// student got wrong, <error> for a fault of cugrade's, <skipped> for what did not run.
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as a JUnit XML document (UTF-8, every string escaped, invalid bytes replaced).
/// Each suite carries <properties> naming the backend, GPU, driver, nvcc, seed and score.
/// Hidden cases are named by their id and show only their outcome.
std::string render_junit(const GradeReport& report);

}  // namespace cugrade
