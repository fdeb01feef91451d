#include "batch/gradebook.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/utc_time.hpp"
#include "report/not_run.hpp"

namespace cugrade {

namespace {

/// The first line of `text`, at most 200 characters: a cell, not a report.
std::string one_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 200) line = line.substr(0, 197) + "...";
  return line;
}

/// Why a student got less than everything, in a few words; empty for a pass.
std::string note_of(const GradeReport& report) {
  if (report.outcome == Outcome::harness_error) {
    for (const auto& note : report.notes)
      if (note.find("harness") != std::string::npos || note.find("cugrade") != std::string::npos) return one_line(note);
    return report.notes.empty() ? "harness error" : one_line(report.notes.front());
  }
  if (!report.gradable) {
    if (!report.build.message.empty()) return one_line(report.build.message);
    if (!report.notes.empty()) return one_line(report.notes.front());
    return std::string(to_string(report.outcome));
  }
  std::size_t failed = 0, unrun = 0;  // unrun: left after an earlier case hung or crashed
  for (const auto& c : report.cases)
    if (c.outcome != Outcome::passed && is_student_outcome(c.outcome)) ++(left_unrun(c) ? unrun : failed);
  if (failed + unrun == 0) return "";
  if (unrun == 0) return fmt::format("{} of {} cases failed", failed, report.cases.size());
  return fmt::format("{} of {} cases failed ({} more not run after them)", failed, report.cases.size(), unrun);
}

/// The most a submission could have scored in this run. A harness error leaves the parts it hit
/// out of the report's max_score, so it is added up again here: every case, and every
/// performance target that was to be timed.
double full_max(const GradeReport& report) {
  if (report.outcome != Outcome::harness_error) return report.max_score;
  double max = 0.0;
  for (const auto& c : report.cases) max += c.max_points;
  for (const auto& p : report.performance)
    if (p.outcome != Outcome::not_run) max += p.max_points;
  return max;
}

}  // namespace

double step_points(const GradeReport& report, const std::string& step) {
  double points = 0.0;
  for (const auto& c : report.cases)
    if (c.step == step) points += c.points;
  for (const auto& p : report.performance)
    if (p.step == step) points += p.points;
  return points;
}

std::string csv_field(std::string_view text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string spreadsheet_text(std::string_view text) {
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos)
    return "'" + std::string(text);
  return std::string(text);
}

std::string render_gradebook(const Spec& spec, const std::vector<StudentRecord>& records,
                             const GradebookOptions& options) {
  std::vector<std::string> steps;
  for (const auto& step : spec.steps)
    if (!step.reference_only) steps.push_back(step.name);
  const auto row = [](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
    return line + "\r\n";
  };
  std::vector<std::string> header{"student", "score", "max_score"};
  header.insert(header.end(), steps.begin(), steps.end());
  header.insert(header.end(), {"outcome", "gradable"});
  if (options.deadline_unix) header.insert(header.end(), {"submitted_at", "submitted_from", "late"});
  if (options.late) for (const auto& column : lateness_header()) header.push_back(column);
  header.push_back("note");
  // Rows by student id, whether graded or not yet.
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& student : options.not_graded) {
    std::vector<std::string> fields{spreadsheet_text(student), "", ""};
    fields.resize(fields.size() + steps.size());
    fields.push_back(std::string(to_string(Outcome::not_run)));
    fields.push_back("no");
    if (options.deadline_unix) fields.insert(fields.end(), {"", "", ""});
    if (options.late) fields.resize(fields.size() + lateness_header().size());
    fields.push_back("not graded yet: the batch stopped before it (run the same command again)");
    rows.emplace_back(student, row(fields));
  }
  for (const auto& record : records) {
    const GradeReport& report = record.report;
    const bool graded = report.outcome != Outcome::harness_error;
    const std::optional<StudentLateness> lateness =
        options.late ? std::optional(assess_student(*options.late, record)) : std::nullopt;
    const double score = lateness && lateness->final_score ? *lateness->final_score : report.score;
    std::vector<std::string> fields{spreadsheet_text(record.student), graded ? format_points(score) : "",
                                    format_points(full_max(report))};
    for (const auto& step : steps) fields.push_back(graded ? format_points(step_points(report, step)) : "");
    fields.push_back(std::string(to_string(report.outcome)));
    fields.push_back(report.gradable ? "yes" : "no");
    if (options.deadline_unix) {
      const std::optional<bool> late =
          handed_in_late(record, lateness ? lateness->deadline_unix : *options.deadline_unix);
      fields.push_back(late && record.submitted_unix > 0 ? iso8601_utc(record.submitted_unix) : "");  // Canvas's: no time
      fields.push_back(record.submitted_from.empty() ? "files" : record.submitted_from);
      fields.push_back(!late ? "" : *late ? "yes" : "no");
    }
    if (lateness)
      for (auto& field : lateness_fields(*lateness)) fields.push_back(std::move(field));
    fields.push_back(spreadsheet_text(note_of(report)));
    rows.emplace_back(record.student, row(fields));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string csv = row(header);
  for (const auto& [student, line] : rows) csv += line;
  return csv;
}

}  // namespace cugrade
