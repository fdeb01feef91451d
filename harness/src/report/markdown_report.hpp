#pragma once
// The report as GitHub-flavoured Markdown: the same content as the console report, in headings
// and tables, for a CI job summary or a pull-request comment.
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as Markdown (GitHub-flavoured: tables, fenced code).
std::string render_markdown(const GradeReport& report);

}  // namespace cugrade
