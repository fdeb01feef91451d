#pragma once
// OUT/regrade.csv: when a class is graded again (its files, the spec, the course secret, the
// backend or cugrade changed, or --regrade), each student whose score changed: the old score, the
// new one, which steps' points moved and what was graded differently. Scores compare as the
// gradebook shows them (0.01 point), so a difference no one can see is not a change.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/student_record.hpp"
#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What a student's earlier result said, kept while the batch grades them again.
struct EarlierResult {
  std::string student;
  std::string record_sha256;           ///< of the whole record: one still the same was not graded again
  std::optional<double> score;         ///< none: a harness error, not a grade
  std::map<std::string, double> steps; ///< points per step the gradebook shows
  Outcome outcome = Outcome::not_run;
  std::string source_sha256;           ///< the files graded then
  std::optional<GradingSettings> settings;
  std::string cugrade_version, gpu, nvcc;
};

/// The part of `record` a regrade is compared with (steps: `spec`'s, as the gradebook has them).
EarlierResult earlier_result(const Spec& spec, const StudentRecord& record);

/// One student whose score changed.
struct ScoreChange {
  std::string student;
  std::optional<double> old_score, new_score;  ///< none: a harness error
  double max_score = 0.0;
  std::string steps;    ///< "tiled: 4 → 2; coalesced: 0 → 1", the steps whose points changed
  std::string outcome;  ///< "passed → wrong_answer", or "" when it is the same
  std::string changed;  ///< what was graded differently: files, spec, settings, cugrade, GPU, ...
};

/// The change from `before` to `after` (the same student graded again), or nullopt when the score
/// and every step's points read the same at 0.01 point.
std::optional<ScoreChange> score_change(const Spec& spec, const EarlierResult& before, const StudentRecord& after);

/// regrade.csv: a header (student, old_score, new_score, difference, max_score, steps, outcome,
/// what_changed) and a row per change, by student id; CRLF, quoted as gradebook.csv is.
std::string render_regrade_csv(const std::vector<ScoreChange>& changes);

/// What a batch found among the students it graded again.
struct RegradeFindings {
  std::vector<std::string> again;    ///< every student graded again (who had a result before)
  std::vector<ScoreChange> changes;  ///< those of them whose score changed
};

/// Writes what `findings` say. Some score changed: OUT/regrade.csv. Graded again and none changed:
/// removes an older regrade.csv, so the file never speaks of a regrade that is not the last. No one
/// graded again: leaves it. Returns the console line ("" when no one was graded again).
Result<std::string> write_regrade_file(const std::filesystem::path& out, const RegradeFindings& findings);

/// The earlier results of the students a batch grades again, and the file that compares them.
class RegradeDiff {
 public:
  explicit RegradeDiff(const Spec& spec) : spec_(spec) {}

  /// Keeps `previous`, a student's record as it was before they are graded again (nothing when
  /// there was none or it could not be read).
  void remember(const Result<std::optional<StudentRecord>>& previous);

  /// Compares the remembered students with their records in `now`: those graded again (a record
  /// that is not the one remembered: a stopped batch may not have reached one) and their changes.
  RegradeFindings find(const std::vector<StudentRecord>& now) const;

  /// write_regrade_file() of find(`now`).
  Result<std::string> write(const std::filesystem::path& out, const std::vector<StudentRecord>& now) const {
    return write_regrade_file(out, find(now));
  }

 private:
  const Spec& spec_;
  std::map<std::string, EarlierResult> earlier_;
};

}  // namespace cugrade
