#pragma once
// The files a batch writes for people: each student's reports under students/<id>/ and the
// class summary page, all rendered by report/ from the students' grade reports.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "batch/late_plan.hpp"
#include "batch/student_record.hpp"
#include "core/result.hpp"
#include "report/report_targets.hpp"

namespace cugrade {

/// Each report written per student and its file name under students/<id>/.
const std::vector<std::pair<ReportKind, std::string>>& student_report_files();

/// Writes every report of student_report_files() for `record` (without hidden cases' details:
/// these may go back to the student); each file atomically.
Result<bool> write_student_reports(const std::filesystem::path& out, const StudentRecord& record);

/// Writes <out>/summary.html: the class at a glance, linking to each student's HTML report (with
/// a late column when a deadline is given, under a late plan each student's standing and penalty,
/// and to similarity.html when the folder holds one).
Result<bool> write_class_summary(const std::filesystem::path& out, const std::vector<StudentRecord>& records,
                                 const std::string& subtitle, std::optional<std::int64_t> deadline_unix = {},
                                 const LatePlan* late = nullptr);

}  // namespace cugrade
