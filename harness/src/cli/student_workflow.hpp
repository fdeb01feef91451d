#pragma once
// The GitHub Actions workflow `cugrade init` writes into a student's folder
// (.github/workflows/cugrade.yml): templates/github/cugrade.yml with this assignment's settings
// filled in. It grades every push (docs/autograding.md).
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// What the workflow template leaves to `cugrade init`.
struct StudentWorkflowSettings {
  std::string assignment;               ///< "matmul"
  std::vector<std::string> submission = {};  ///< the student's files, relative to the repository root
  std::string repository;               ///< the course's repository holding cugrade ("course/cugrade")
  std::string ref;                      ///< the tag (or branch, or commit) of cugrade to build
  /// The course's release package (a .deb) the workflow installs instead of building cugrade;
  /// empty: none, cugrade is built from source.
  std::string package_url = {};
  std::string package_sha256 = {};  ///< its SHA-256, 64 hex digits; set exactly when package_url is
};

/// Where the workflow goes inside the student's folder.
inline constexpr std::string_view kStudentWorkflowPath = ".github/workflows/cugrade.yml";

/// The repository used when none is given: it names itself as a value to replace.
inline constexpr std::string_view kPlaceholderRepository = "COURSE-ORG/cugrade";

/// "owner/name" of the GitHub repository a git config's `origin` remote names (https, ssh or
/// git@ form, with or without .git), or "" when it names none: the course's repository, found
/// from the clone of cugrade a student built.
std::string github_origin(std::string_view git_config);

/// The template with @ASSIGNMENT@, @SUBMISSION@, @CUGRADE_REPOSITORY@, @CUGRADE_REF@,
/// @CUGRADE_PACKAGE_URL@ and @CUGRADE_PACKAGE_SHA256@ filled in. An error when a value could break
/// the YAML or the shell it lands in (a repository not of the form owner/name; quotes, spaces or
/// newlines in a name or URL), a package URL without its SHA-256 (or the reverse), or a
/// placeholder is missing.
Result<std::string> render_student_workflow(std::string_view template_text,
                                            const StudentWorkflowSettings& settings);

}  // namespace cugrade
