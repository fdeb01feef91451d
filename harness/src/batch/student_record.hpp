#pragma once
// What a batch keeps per student under <out>/results/<student>.json: the grade report and what
// was graded (the submission's fingerprint). Written last and atomically, it is the mark that
// the student is done: a restarted batch trusts it, and the gradebook is made from these alone.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/grading_settings.hpp"
#include "core/result.hpp"
#include "pipeline/check_submission.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// One student's result in a batch.
struct StudentRecord {
  std::string student;              ///< "alice"
  std::string source;               ///< the folder or archive it came from ("alice.zip")
  std::string source_sha256;        ///< fingerprint of what was graded; empty when it could not be read
  std::int64_t submitted_unix = 0;  ///< when it was handed in (submission_time(): a commit, the LMS, the files)
  std::string submitted_from;       ///< where submitted_unix came from: git, gradescope, archive, archive file, files, blackboard; canvas_late, canvas_on_time (no time)
  /// How it was graded (assignment, spec, hidden cases, backend, ...); none in a record of an
  /// earlier cugrade, which kept no settings.
  std::optional<GradingSettings> settings;
  StageSeconds seconds;             ///< where the grading time went
  double unpack_seconds = 0.0;      ///< unpacking and hashing the submission
  GradeReport report;               ///< with hidden cases' details (this record is the TA's)

  /// Field-by-field equality (exact for doubles), for round-trip checks.
  bool operator==(const StudentRecord& other) const;
};

/// StudentRecord::submitted_from of a student who handed in nothing to read (an entry refused
/// as what it is, an empty folder or file): such a record has no time and no late flag.
inline constexpr const char* nothing_handed_in = "nothing handed in";

/// StudentRecord::submitted_from of Canvas's download, which holds no time but Canvas's own mark,
/// against the due date (and the student's extension) set in Canvas: late, or on time.
inline constexpr const char* canvas_late = "canvas: late";
inline constexpr const char* canvas_on_time = "canvas: on time";

/// StudentRecord::submitted_from of Blackboard's download: the time is the attempt's, from its
/// files' names (Blackboard's server time, read as local time); the files' own times are the download's.
inline constexpr const char* blackboard_attempt = "blackboard";

/// Whether `record` was handed in after `deadline_unix` (from Canvas's download: as Canvas marked
/// it); nullopt when nothing was handed in.
std::optional<bool> handed_in_late(const StudentRecord& record, std::int64_t deadline_unix);

/// The record as JSON (the report in its canonical form, hidden details included).
nlohmann::json record_to_json(const StudentRecord& record);

/// Reads what record_to_json wrote; an error naming what is missing or malformed.
Result<StudentRecord> record_from_json(const nlohmann::json& json);

/// <out>/results/<name>.json, the name made of the id by student_path_name().
std::filesystem::path record_path(const std::filesystem::path& out, const std::string& student);

/// Writes the record atomically to record_path().
Result<bool> save_record(const std::filesystem::path& out, const StudentRecord& record);

/// Reads the record of `student`: nullopt when there is none yet, an error when it cannot be read.
Result<std::optional<StudentRecord>> load_record(const std::filesystem::path& out, const std::string& student);

}  // namespace cugrade
