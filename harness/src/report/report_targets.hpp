#pragma once
// Several reports at once, each to its own destination (`--report json=out.json
// --report console=-`), as test frameworks do: one run serves a student, a CI summary and a file.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "report/console_report.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// The formats a report can be written in.
enum class ReportKind {
  console,       ///< text for a terminal (colour only on a terminal)
  json,          ///< the canonical record (report/json_report.hpp)
  markdown,      ///< GitHub-flavoured Markdown, e.g. for $GITHUB_STEP_SUMMARY
  html,          ///< one self-contained page (report/html_report.hpp)
  junit,         ///< JUnit XML for CI servers (report/junit_report.hpp)
  gradescope,    ///< Gradescope's results.json (report/gradescope_report.hpp)
  prairielearn,  ///< PrairieLearn's results.json (report/prairielearn_report.hpp)
  github,        ///< GitHub Actions annotations, for standard output (report/github_report.hpp)
  classroom50,   ///< Classroom 50's result.json, identity from its runner (report/classroom50_report.hpp)
};

/// The name used on the command line: "console", "json", "markdown", "html", "junit",
/// "gradescope", "prairielearn", "github" or "classroom50".
std::string_view to_string(ReportKind kind);

/// One `--report` value: a format and where it goes.
struct ReportTarget {
  ReportKind kind = ReportKind::console;
  std::string path;  ///< a file, or "-" for standard output

  /// Same kind and path.
  bool operator==(const ReportTarget&) const = default;
};

/// Parses `kind=path` values (any ReportKind by name; "-" is standard output); an unknown kind
/// names the nearest known one.
Result<std::vector<ReportTarget>> parse_report_targets(const std::vector<std::string>& specs);

/// Checks, before any grading, that every file target can be written: not a symbolic link, not
/// a folder, and its folder exists or can be made where cugrade may write; and that a classroom50
/// target has Classroom 50's identity in the environment. The error names each.
Result<bool> check_report_targets(const std::vector<ReportTarget>& targets);

/// Writes texts already rendered, each to its target ("-" is standard output; a file is replaced
/// atomically, its folder created if needed); every target is tried, the error lists each
/// failure. For records other than a GradeReport (`cugrade bench`'s tables).
Result<bool> write_rendered(const std::vector<std::pair<ReportTarget, std::string>>& rendered);

/// Writes the report to every target; a file is replaced atomically (written beside it, then
/// renamed), its folder created if needed. Colour only for the console on standard output; hidden
/// case details only when asked (a TA's JSON). Every target is tried; the error lists each failure.
/// `repository_paths`: the submission's files by their path from the repository's root, for
/// GitHub annotations (render_github_annotations). `console_detail`: every case on the console
/// only when asked (`-v`).
Result<bool> write_reports(const GradeReport& report, const std::vector<ReportTarget>& targets,
                           bool colour_console, bool include_hidden_details = false,
                           const std::map<std::string, std::string>& repository_paths = {},
                           ConsoleDetail console_detail = ConsoleDetail::summary);

}  // namespace cugrade
