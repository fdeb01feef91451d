#pragma once
// Classroom 50's result.json (schema `classroom50/result/v1`, the successor of GitHub Classroom;
// its published JSON Schema is kept in harness/tests/report/data/classroom50/ with its
// provenance): the submission's identity as Classroom 50's runner hands it to an autograder in
// its environment, a whole-point score and one test per step, plus the build and each graded
// performance target.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// Who and what was graded, as Classroom 50's runner says it (its autograder contract).
struct Classroom50Identity {
  std::string classroom;        ///< CLASSROOM
  std::string assignment;       ///< ASSIGNMENT (Classroom 50's slug, not necessarily cugrade's id)
  std::string assignment_type;  ///< ASSIGNMENT_TYPE as the runner sets it ("individual", its default, or "group")
  std::string owner;            ///< OWNER, else USERNAME: the repository owner's login
  std::string submission;       ///< SUBMISSION_TAG: "submit/<UTC time>-<short sha>"
  std::string commit;           ///< COMMIT_URL
  std::string release;          ///< RELEASE_URL
  std::string review;           ///< REVIEW_URL, else COMMIT_URL
  std::optional<std::string> submitted_by;  ///< GITHUB_ACTOR, who pushed
  std::optional<long long> submitted_by_id; ///< GITHUB_ACTOR_ID

  /// Field-by-field equality.
  bool operator==(const Classroom50Identity&) const = default;
};

/// The identity from Classroom 50's variables in this process's environment; an error naming
/// every one missing or malformed (outside Classroom 50's runner, none is set).
Result<Classroom50Identity> classroom50_identity_from_environment();

/// The report as a `classroom50/result/v1` document. Classroom 50 counts whole points: each test's
/// score and max-score are the report's points rounded to the nearest whole point (its exact
/// points beside them, as "points" and "max-points"), and the totals are the tests' sums. Tests:
/// "build" (0 points), one per step over its cases (hidden cases only counted, never described),
/// one per graded performance target. A harness fault is left out of the maximum, as in
/// cugrade's own score. `datetime` and `graded_at` are the report's start (Classroom 50's runner
/// stamps the commit's time over `datetime`).
nlohmann::json report_to_classroom50(const GradeReport& report, const Classroom50Identity& identity);

}  // namespace cugrade
