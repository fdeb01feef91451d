#pragma once
// The report as GitHub Actions workflow commands (`::error file=...,line=...::message`), which
// the runner turns into annotations on the student's lines in the commit and pull request. Meant
// for standard output: `cugrade check ... --report github=-` inside a workflow step.
#include <map>
#include <string>
#include <string_view>

#include "report/grade_report.hpp"

namespace cugrade {

/// Annotations for a report: each compiler diagnostic on its file, line and column (errors as
/// ::error, warnings as ::warning); one per step that fell short, on the submission's first file:
/// ::error when a case failed (its diagnosis, its alike failures one line each), ::warning when
/// only performance points were missed or only cugrade faulted; and a closing ::notice with the
/// score. At most 10 errors and 10 warnings (GitHub shows no
/// more per step), then a notice of how many were left out. Hidden cases show only their outcome.
/// `repository_paths` maps a file name as the report shows it to its path from the repository's
/// root (`src/matmul.cu`), where GitHub puts the annotation; a name not in it is used as it is.
std::string render_github_annotations(const GradeReport& report,
                                      const std::map<std::string, std::string>& repository_paths = {});

/// A command's message escaped as GitHub requires: % → %25, CR → %0D, LF → %0A, so that student
/// text can neither end the command nor start another.
std::string escape_github_data(std::string_view text);

/// A command property's value (file=, title=) escaped: as escape_github_data, and also
/// ':' → %3A and ',' → %2C, which would otherwise end the value.
std::string escape_github_property(std::string_view text);

}  // namespace cugrade
