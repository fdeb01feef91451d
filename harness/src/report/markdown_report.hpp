#pragma once
// The report as GitHub-flavoured Markdown: the same content as the console report, in headings
// and tables, for a CI job summary or a pull-request comment.
#include <string>
#include <string_view>

#include "report/grade_report.hpp"

namespace cugrade {

/// The report as Markdown (GitHub-flavoured: tables, fenced code).
std::string render_markdown(const GradeReport& report);

/// Text as literal Markdown: characters Markdown would act on ("|", "*", "_", "`", "[", "]", "\\",
/// "<", ">") are escaped, and a newline becomes "<br>" so that a table row stays one line.
std::string escape_markdown(std::string_view text);

}  // namespace cugrade
