#include "batch/regrade_diff.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "batch/gradebook.hpp"
#include "core/atomic_file.hpp"
#include "core/sha256.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Equal as the gradebook shows points (format_points: 0.01 point).
bool same_points(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return !a && !b;
  return format_points(*a) == format_points(*b);
}

/// The whole record's SHA-256 (an id of any bytes written as save_record writes it).
std::string record_digest(const StudentRecord& record) {
  return sha256_hex(record_to_json(record).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

/// What was graded differently, in words; never empty.
std::string what_changed(const EarlierResult& before, const StudentRecord& after) {
  std::vector<std::string> parts;
  if (before.outcome == Outcome::harness_error) parts.push_back("the earlier attempt was a harness error (not a grade)");
  if (after.report.outcome == Outcome::harness_error)
    parts.push_back("this attempt was a harness error (not a grade: run the same command again)");
  if (before.source_sha256 != after.source_sha256) parts.push_back("the submission's files");
  if (after.settings)
    if (const std::string settings = settings_changed(before.settings, *after.settings); !settings.empty())
      parts.push_back(settings);
  const Environment& env = after.report.environment;
  // The settings name a new build of cugrade where both records keep theirs.
  const bool builds_compared = after.settings && before.settings && !before.settings->cugrade.empty();
  if (!builds_compared && before.cugrade_version != after.report.cugrade_version)
    parts.push_back(fmt::format("cugrade ({}, now {})", before.cugrade_version, after.report.cugrade_version));
  if (before.gpu != env.gpu) parts.push_back(fmt::format("the GPU ({}, now {})", before.gpu.empty() ? "none" : before.gpu,
                                                         env.gpu.empty() ? "none" : env.gpu));
  else if (before.nvcc != env.nvcc) parts.push_back(fmt::format("nvcc ({}, now {})", before.nvcc, env.nvcc));
  if (parts.empty())
    return "nothing cugrade records (graded again by --regrade: a timing's spread, or a change outside cugrade's "
           "build, such as the driver)";
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

EarlierResult earlier_result(const Spec& spec, const StudentRecord& record) {
  EarlierResult e;
  e.student = record.student;
  e.record_sha256 = record_digest(record);
  e.outcome = record.report.outcome;
  if (e.outcome != Outcome::harness_error) {
    e.score = record.report.score;
    for (const auto& step : spec.steps)
      if (!step.reference_only) e.steps[step.name] = step_points(record.report, step.name);
  }
  e.source_sha256 = record.source_sha256;
  e.settings = record.settings;
  e.cugrade_version = record.report.cugrade_version;
  e.gpu = record.report.environment.gpu;
  e.nvcc = record.report.environment.nvcc;
  return e;
}

std::optional<ScoreChange> score_change(const Spec& spec, const EarlierResult& before, const StudentRecord& after) {
  const EarlierResult now = earlier_result(spec, after);
  std::string steps;
  for (const auto& step : spec.steps) {
    if (step.reference_only) continue;
    // As the gradebook shows them ("none" for a harness error, which has no points).
    const auto shown = [&](const EarlierResult& result) {
      const auto it = result.steps.find(step.name);
      return !result.score ? std::string("none") : format_points(it == result.steps.end() ? 0.0 : it->second);
    };
    const std::string old_points = shown(before), new_points = shown(now);
    if (old_points != new_points)
      steps += fmt::format("{}{}: {} → {}", steps.empty() ? "" : "; ", step.name, old_points, new_points);
  }
  if (same_points(before.score, now.score) && steps.empty()) return std::nullopt;
  ScoreChange change;
  change.student = after.student;
  change.old_score = before.score;
  change.new_score = now.score;
  change.max_score = after.report.max_score;
  change.steps = steps;
  if (before.outcome != now.outcome)
    change.outcome = fmt::format("{} → {}", to_string(before.outcome), to_string(now.outcome));
  change.changed = what_changed(before, after);
  return change;
}

std::string render_regrade_csv(const std::vector<ScoreChange>& changes) {
  const auto row = [](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
    return line + "\r\n";
  };
  std::vector<ScoreChange> sorted = changes;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.student < b.student; });
  std::string csv = row({"student", "old_score", "new_score", "difference", "max_score", "steps", "outcome", "what_changed"});
  for (const auto& c : sorted) {
    const std::string difference =
        c.old_score && c.new_score ? format_points(std::round(*c.new_score * 100.0) / 100.0 - std::round(*c.old_score * 100.0) / 100.0) : "";
    csv += row({spreadsheet_text(c.student), c.old_score ? format_points(*c.old_score) : "",
                c.new_score ? format_points(*c.new_score) : "", difference, format_points(c.max_score), c.steps,
                c.outcome, c.changed});
  }
  return csv;
}

void RegradeDiff::remember(const Result<std::optional<StudentRecord>>& previous) {
  if (previous && previous->has_value()) earlier_[(*previous)->student] = earlier_result(spec_, **previous);
}

RegradeFindings RegradeDiff::find(const std::vector<StudentRecord>& now) const {
  RegradeFindings findings;
  for (const StudentRecord& record : now) {
    const auto it = earlier_.find(record.student);
    if (it == earlier_.end()) continue;
    if (it->second.record_sha256 == record_digest(record)) continue;  // not graded again (stopped first)
    findings.again.push_back(record.student);
    if (auto change = score_change(spec_, it->second, record)) findings.changes.push_back(std::move(*change));
  }
  return findings;
}

Result<std::string> write_regrade_file(const fs::path& out, const RegradeFindings& findings) {
  const std::size_t again = findings.again.size();
  if (again == 0) return std::string();
  const fs::path file = out / "regrade.csv";
  if (findings.changes.empty()) {
    std::error_code ec;
    fs::remove(file, ec);
    if (ec) return fail("cannot remove the older " + file.string() + ": " + ec.message());
    return fmt::format("Regrade: {} student{} graded again, no score changed (no regrade.csv).", again,
                       again == 1 ? "" : "s");
  }
  if (auto written = write_file_atomically(file, render_regrade_csv(findings.changes)); !written)
    return std::unexpected(written.error());
  return fmt::format("Regrade: {} of {} student{} graded again got a new score: {} (old, new and what changed).",
                     findings.changes.size(), again, again == 1 ? "" : "s", file.string());
}

}  // namespace cugrade
