#include "report/json_report.hpp"

#include <cmath>
#include <limits>

namespace cugrade {
namespace {

using nlohmann::json;

// JSON has no NaN or Infinity, and a NaN in a student's output is exactly what a report must
// be able to say: such values travel as strings, everything else as plain numbers.
json number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

json optional_number(const std::optional<double>& value) {
  return value ? number(*value) : json(nullptr);
}

json to_json(const Diagnostic& d) {
  return {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity},
          {"message", d.message}};
}

json to_json(const BuildResult& b) {
  json diagnostics = json::array();
  for (const Diagnostic& d : b.diagnostics) diagnostics.push_back(to_json(d));
  return {{"outcome", to_string(b.outcome)}, {"arch", b.arch}, {"seconds", number(b.seconds)},
          {"commands", b.commands}, {"diagnostics", diagnostics}, {"message", b.message},
          {"log", b.log}};
}

json to_json(const Mismatch& m) {
  return {{"index", m.index}, {"coords", m.coords}, {"expected", number(m.expected)},
          {"actual", number(m.actual)}};
}

json to_json(const Comparison& c, bool details) {
  json out = {{"array", c.array}, {"wrong", c.wrong}, {"nonfinite", c.nonfinite}};
  if (!details) return out;
  json first = json::array();
  for (const Mismatch& m : c.first) first.push_back(to_json(m));
  out["checked"] = c.checked;
  out["max_abs_error"] = number(c.max_abs_error);
  out["max_rel_error"] = number(c.max_rel_error);
  out["first"] = first;
  out["pattern"] = c.pattern;
  return out;
}

json to_json(const CaseResult& c, bool include_hidden_details) {
  // What identifies a hidden case's inputs (its size and seed) or shows its values stays out of
  // what students see, so the hidden cases cannot be reproduced from the report.
  const bool details = c.visibility == Visibility::visible || include_hidden_details;
  json comparisons = json::array();
  for (const Comparison& comparison : c.comparisons)
    comparisons.push_back(to_json(comparison, details));
  json out = {{"id", c.id},
              {"step", c.step},
              {"visibility", c.visibility == Visibility::hidden ? "hidden" : "visible"},
              {"outcome", to_string(c.outcome)},
              {"points", number(c.points)},
              {"max_points", number(c.max_points)},
              {"seconds", number(c.seconds)},
              {"comparisons", comparisons}};
  if (details) {
    out["params"] = c.params;
    out["seed"] = c.seed;
    out["message"] = c.message;
  }
  return out;
}

json to_json(const std::optional<TimingStats>& t) {
  if (!t) return nullptr;
  return {{"median_ms", number(t->median_ms)}, {"min_ms", number(t->min_ms)},
          {"max_ms", number(t->max_ms)},       {"q1_ms", number(t->q1_ms)},
          {"q3_ms", number(t->q3_ms)},         {"rse", number(t->rse)},
          {"samples", t->samples},             {"wall_clock_samples", t->wall_clock_samples}};
}

json to_json(const std::optional<PerformanceDiagnosis>& d) {
  if (!d) return nullptr;
  return {{"cause", d->cause},     {"message", d->message},   {"details", d->details},
          {"kernel", d->kernel},   {"location", d->location}};
}

json to_json(const PerformanceResult& p) {
  return {{"step", p.step},
          {"reference", p.reference},
          {"params", p.params},
          {"outcome", to_string(p.outcome)},
          {"student", to_json(p.student)},
          {"reference_time", to_json(p.reference_time)},
          {"reference_alone", to_json(p.reference_alone)},
          {"ratio", number(p.ratio)},
          {"rate_unit", p.rate_unit},
          {"student_rate", number(p.student_rate)},
          {"reference_rate", number(p.reference_rate)},
          {"percent_of_ceiling", optional_number(p.percent_of_ceiling)},
          {"points", number(p.points)},
          {"max_points", number(p.max_points)},
          {"flags", p.flags},
          {"message", p.message},
          {"diagnosis", to_json(p.diagnosis)}};
}

json to_json(const Environment& e) {
  return {{"backend", e.backend},           {"gpu", e.gpu},
          {"compute_capability", e.compute_capability},
          {"driver", e.driver},             {"cuda_runtime", e.cuda_runtime},
          {"nvcc", e.nvcc},                 {"host", e.host},
          {"sm_clock_mhz", e.sm_clock_mhz}, {"memory_clock_mhz", e.memory_clock_mhz}};
}

}  // namespace

nlohmann::json report_to_json(const GradeReport& report, bool include_hidden_details) {
  json cases = json::array();
  for (const CaseResult& c : report.cases) cases.push_back(to_json(c, include_hidden_details));
  json performance = json::array();
  for (const PerformanceResult& p : report.performance) performance.push_back(to_json(p));
  return {{"cugrade_version", report.cugrade_version},
          {"assignment", report.assignment},
          {"title", report.title},
          {"submission", report.submission},
          {"submission_sha256", report.submission_sha256},
          {"seed", report.seed},
          {"started_at", report.started_at},
          {"environment", to_json(report.environment)},
          {"build", to_json(report.build)},
          {"cases", cases},
          {"performance", performance},
          {"outcome", to_string(report.outcome)},
          {"gradable", report.gradable},
          {"score", number(report.score)},
          {"max_score", number(report.max_score)},
          {"notes", report.notes}};
}

}  // namespace cugrade
