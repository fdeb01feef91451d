#pragma once
// The report as one self-contained HTML page for a student (or a TA opening one student's
// result): score, build, every case with the failed ones' first mismatches, and a chart of the
// student's times against the reference's per timed step. No script, no external resource.
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as an HTML page. Everything that came from the submission (compiler output,
/// messages, file names) is escaped; hidden cases show only their outcome and points.
std::string render_html(const GradeReport& report);

}  // namespace cugrade
