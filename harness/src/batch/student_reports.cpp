#include "batch/student_reports.hpp"

#include <cctype>

#include <fmt/format.h>

#include "batch/student_paths.hpp"
#include "core/atomic_file.hpp"
#include "report/class_summary_html.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {
/// A folder name as one segment of a URL ("bob%20smith" → "bob%2520smith").
std::string url_segment(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}
}  // namespace

const std::vector<std::pair<ReportKind, std::string>>& student_report_files() {
  static const std::vector<std::pair<ReportKind, std::string>> files{
      {ReportKind::json, "report.json"},
      {ReportKind::markdown, "report.md"},
      {ReportKind::html, "report.html"},
      {ReportKind::gradescope, "gradescope-results.json"},
      {ReportKind::prairielearn, "prairielearn-results.json"},
      {ReportKind::junit, "junit.xml"},
  };
  return files;
}

Result<bool> write_student_reports(const fs::path& out, const StudentRecord& record) {
  std::vector<ReportTarget> targets;
  for (const auto& [kind, name] : student_report_files())
    targets.push_back({kind, (student_reports_dir(out, record.student) / name).string()});
  return write_reports(record.report, targets, false);
}

Result<bool> write_class_summary(const fs::path& out, const std::vector<StudentRecord>& records,
                                 const std::string& subtitle, std::optional<std::int64_t> deadline_unix,
                                 const LatePlan* late) {
  std::vector<ClassSummaryEntry> entries;
  entries.reserve(records.size());
  for (const auto& r : records) {
    entries.push_back({r.student, r.report, "students/" + url_segment(student_path_name(r.student)) + "/report.html"});
    if (deadline_unix) entries.back().late = handed_in_late(r, *deadline_unix);  // as the gradebook says
    if (late) {
      const StudentLateness lateness = assess_student(*late, r);
      entries.back().late = handed_in_late(r, lateness.deadline_unix);
      entries.back().late_text = lateness_cell(lateness);
    }
  }
  ClassSummaryOptions options;
  options.subtitle = subtitle;
  // Written by `cugrade similarity` or `grade --similarity` into the same folder.
  if (std::error_code ec; fs::is_regular_file(out / "similarity.html", ec)) options.similarity_link = "similarity.html";
  if (std::error_code ec; fs::is_regular_file(out / "leaderboard.html", ec)) options.leaderboard_link = "leaderboard.html";
  return write_file_atomically(out / "summary.html", render_class_summary_html(entries, options));
}

}  // namespace cugrade
