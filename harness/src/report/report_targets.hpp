#pragma once
// Several reports at once, each to its own destination (`--report json=out.json
// --report console=-`), as test frameworks do: one run serves a student, a CI summary and a file.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// The formats a report can be written in.
enum class ReportKind { console, json, markdown };

/// "console", "json" or "markdown": the name used on the command line.
std::string_view to_string(ReportKind kind);

/// One `--report` value: a format and where it goes.
struct ReportTarget {
  ReportKind kind = ReportKind::console;
  std::string path;  ///< a file, or "-" for standard output

  /// Same kind and path.
  bool operator==(const ReportTarget&) const = default;
};

/// Parses `kind=path` values (kinds: console, json, markdown; "-" is standard output); an
/// unknown kind names the nearest known one.
Result<std::vector<ReportTarget>> parse_report_targets(const std::vector<std::string>& specs);

/// Writes the report to every target; a file is replaced atomically (written beside it, then
/// renamed), its folder created if needed. Colour only for the console on standard output; hidden
/// case details only when asked (a TA's JSON). Every target is tried; the error lists each failure.
Result<bool> write_reports(const GradeReport& report, const std::vector<ReportTarget>& targets,
                           bool colour_console, bool include_hidden_details = false);

}  // namespace cugrade
