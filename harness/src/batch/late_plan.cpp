#include "batch/late_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/utc_time.hpp"
#include "report/report_format.hpp"

namespace cugrade {

namespace {

/// "1 d 2 h", "3 d 15 min 1 s", "40 s": how long after the deadline, to the second (the second
/// past the grace is the one that costs a day, so it is shown).
std::string lateness_words(std::int64_t seconds) {
  const std::int64_t parts[] = {seconds / 86400, seconds % 86400 / 3600, seconds % 3600 / 60, seconds % 60};
  const char* units[] = {"d", "h", "min", "s"};
  std::string text;
  for (int i = 0; i < 4; ++i)
    if (parts[i]) text += fmt::format("{}{} {}", text.empty() ? "" : " ", parts[i], units[i]);
  return text.empty() ? "0 s" : text;
}

}  // namespace

std::int64_t LatePlan::deadline_of(const std::string& student) const {
  const auto it = extensions.deadlines.find(student);
  return it == extensions.deadlines.end() ? deadline_unix : it->second;
}

std::optional<std::int64_t> trusted_submission_time(const StudentRecord& record, std::string& why) {
  const std::string& from = record.submitted_from;
  if ((from == "git" || from == "gradescope" || from == "archive" || from == blackboard_attempt) &&
      record.submitted_unix > 0)
    return record.submitted_unix;
  if (from == nothing_handed_in) why = "nothing was handed in";
  else if (from == canvas_late) why = "Canvas marks it late but gives no time to count days from";
  else if (from == blackboard_attempt) why = "Blackboard's attempt time could not be read from the file names";
  else if (from == "archive file") why = "its only time is the archive file's modification time (the copy's, not the student's)";
  else why = "its only time is the files' modification times (the copy's, not the student's)";
  return std::nullopt;
}

StudentLateness assess_student(const LatePlan& plan, const StudentRecord& record) {
  StudentLateness l;
  l.deadline_unix = plan.deadline_of(record.student);
  l.extended = plan.extensions.deadlines.contains(record.student);
  const LatePolicy policy = plan.policy.value_or(LatePolicy{});
  if (record.submitted_from == canvas_on_time) {
    l.assessment.standing = LateStanding::on_time;  // Canvas's own word, against its due date
  } else {
    const auto when = trusted_submission_time(record, l.unknown_because);
    l.assessment = assess_lateness(policy, l.deadline_unix, when);
  }
  const GradeReport& report = record.report;
  if (report.outcome != Outcome::harness_error) {
    l.raw_score = std::round(report.score * 100.0) / 100.0;
    l.penalty = late_penalty_points(l.assessment, report.score);
    l.final_score = *l.raw_score - *l.penalty;
  }
  return l;
}

std::string lateness_note(const LatePlan& plan, const StudentLateness& l, double max_score) {
  const std::string due = fmt::format("{} ({})", l.extended ? "the extended deadline" : "the deadline",
                                      iso8601_utc(l.deadline_unix));
  const std::string policy = plan.policy ? " under the late policy (" + describe_late_policy(*plan.policy) + ")" : "";
  const LateAssessment& a = l.assessment;
  const std::string after = lateness_words(a.seconds_late) + " after " + due;
  switch (a.standing) {
    case LateStanding::on_time:
      return l.extended ? "On time by " + due + "." : "";
    case LateStanding::in_grace:
      return "Handed in " + after + ", within the grace: no penalty.";
    case LateStanding::late:
      if (!l.raw_score) return "Handed in " + after + ": " + std::to_string(a.days_late) + " started days late" + policy + ".";
      return fmt::format("Late: handed in {}, {} started day{} after the grace{}: −{} % of the raw score {} = −{} point{}; "
                         "final score {} of {}.",
                         after, a.days_late, a.days_late == 1 ? "" : "s", policy, format_points(a.penalty_percent),
                         format_points(*l.raw_score), format_points(*l.penalty), *l.penalty == 1.0 ? "" : "s",
                         format_points(*l.final_score), format_points(max_score));
    case LateStanding::too_late:
      return fmt::format("Not accepted: handed in {}, {} started days after the grace{}: final score 0 of {} (the "
                         "grading above is feedback).",
                         after, a.days_late, policy, format_points(max_score));
    case LateStanding::time_unknown:
      return "Hand-in time unknown: " + l.unknown_because + "; no late penalty was applied.";
  }
  return "";
}

std::string lateness_cell(const StudentLateness& l) {
  switch (l.assessment.standing) {
    case LateStanding::on_time: return l.extended ? "on time (extension)" : "on time";
    case LateStanding::in_grace: return "in grace";
    case LateStanding::late:
      if (!l.penalty) return fmt::format("late ({} d)", l.assessment.days_late);
      return fmt::format("late ({} d): −{} ({} %) → {}", l.assessment.days_late, format_points(*l.penalty),
                         format_points(l.assessment.penalty_percent), format_points(*l.final_score));
    case LateStanding::too_late: return fmt::format("too late ({} d): not accepted, 0", l.assessment.days_late);
    case LateStanding::time_unknown: return "time unknown: not penalised";
  }
  return "";
}

std::vector<std::string> lateness_header() { return {"due", "days_late", "raw_score", "penalty", "late_outcome"}; }

std::vector<std::string> lateness_fields(const StudentLateness& l) {
  const bool known = l.assessment.standing != LateStanding::time_unknown;
  return {iso8601_utc(l.deadline_unix), known ? std::to_string(l.assessment.days_late) : "",
          l.raw_score ? format_points(*l.raw_score) : "", l.penalty ? format_points(*l.penalty) : "",
          std::string(to_string(l.assessment.standing))};
}

std::string lateness_summary(const LatePlan& plan, const std::vector<StudentRecord>& records) {
  std::size_t grace = 0, late = 0, too_late = 0;
  double taken = 0.0;
  std::vector<std::string> unknown;
  for (const auto& record : records) {
    if (record.submitted_from == nothing_handed_in) continue;  // nothing to be late with
    const StudentLateness l = assess_student(plan, record);
    if (!l.raw_score) continue;  // a harness error: no grade to take from (listed as such)
    switch (l.assessment.standing) {
      case LateStanding::in_grace: ++grace; break;
      case LateStanding::late: ++late; break;
      case LateStanding::too_late: ++too_late; break;
      case LateStanding::time_unknown: unknown.push_back(printable(record.student)); break;
      case LateStanding::on_time: break;
    }
    if (l.penalty) taken += *l.penalty;
  }
  std::string line = "Late policy: " + (plan.policy ? describe_late_policy(*plan.policy) : std::string("none (the late flag only)"));
  if (!plan.extensions.deadlines.empty())
    line += fmt::format("; {} extension{}", plan.extensions.deadlines.size(), plan.extensions.deadlines.size() == 1 ? "" : "s");
  line += fmt::format(". {} in grace, {} penalised, {} not accepted (too late); {} point{} taken in all.", grace, late,
                      too_late, format_points(taken), taken == 1.0 ? "" : "s");
  if (!unknown.empty()) {
    const std::size_t shown = std::min<std::size_t>(unknown.size(), 10);
    line += fmt::format("\nHand-in time unknown for {} (not penalised; gradebook.csv's late_outcome says "
                        "time_unknown, and the report why):",
                        unknown.size());
    for (std::size_t i = 0; i < shown; ++i) line += (i ? ", " : " ") + unknown[i];
    if (shown < unknown.size()) line += fmt::format(", and {} more", unknown.size() - shown);
  }
  return line;
}

}  // namespace cugrade
