#pragma once
// The report a student reads in a terminal: what passed, what is wrong and where, how fast;
// each case in detail only when asked (`cugrade check -v`).
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// How much of the report the console shows.
enum class ConsoleDetail {
  summary,     ///< the build, performance, notes, one row per step and the score
  every_case,  ///< also every case, alike failures gathered into one line (`-v`)
};

/// The report as terminal text, closing with one row per step and the score; ANSI colour (green
/// PASS, red FAIL, bold total) only if `colour`. The build's messages (with the compiler's quote
/// of the source line and caret) are always shown.
std::string render_console(const GradeReport& report, bool colour,
                           ConsoleDetail detail = ConsoleDetail::summary);

}  // namespace cugrade
