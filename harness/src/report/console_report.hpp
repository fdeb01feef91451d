#pragma once
// The report a student reads in a terminal: what passed, what is wrong and where, how fast.
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as terminal text; ANSI colour (green PASS, red FAIL, bold total) only if `colour`.
std::string render_console(const GradeReport& report, bool colour);

}  // namespace cugrade
