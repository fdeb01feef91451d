// report_from_json (declared in json_report.hpp): reads the canonical record back, naming the
// place of the first problem ("cases[2].outcome: expected a string, found a number").
#include <cmath>
#include <concepts>
#include <limits>

#include <fmt/format.h>

#include "report/json_report.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

/// Keys a report may leave out: those report_to_json omits for hidden cases.
enum class Presence { required, optional };

/// Reads values into a GradeReport, remembering only the first problem so that one bad file
/// yields one clear message rather than a cascade.
class Reader {
 public:
  std::string error;

  template <class T>
  void get(const json& object, const std::string& path, const char* key, T& out,
           Presence presence = Presence::required) {
    const std::string where = path.empty() ? key : path + "." + key;
    const auto it = object.find(key);
    if (it == object.end()) {
      if (presence == Presence::required) fail(where, "missing");
      return;
    }
    read(*it, where, out);
  }

 private:
  void fail(const std::string& where, const std::string& what) {
    if (error.empty()) error = where + ": " + what;
  }

  bool expect(bool ok, const json& j, const std::string& where, const char* kind) {
    if (!ok) fail(where, fmt::format("expected {}, found {}", kind, j.type_name()));
    return ok;
  }

  void read(const json& j, const std::string& where, std::string& out) {
    if (expect(j.is_string(), j, where, "a string")) out = j.get<std::string>();
  }
  void read(const json& j, const std::string& where, bool& out) {
    if (expect(j.is_boolean(), j, where, "true or false")) out = j.get<bool>();
  }
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  void read(const json& j, const std::string& where, T& out) {
    if (!expect(j.is_number_integer(), j, where, "an integer")) return;
    if (std::is_unsigned_v<T> && !j.is_number_unsigned() && j.get<std::int64_t>() < 0)
      return fail(where, fmt::format("expected a non-negative integer, found {}", j.dump()));
    out = j.get<T>();
  }
  void read(const json& j, const std::string& where, double& out) {
    if (j.is_number()) {
      out = j.get<double>();
    } else if (j == "NaN") {
      out = std::numeric_limits<double>::quiet_NaN();
    } else if (j == "Infinity" || j == "-Infinity") {
      out = (j == "Infinity" ? 1.0 : -1.0) * std::numeric_limits<double>::infinity();
    } else {
      expect(false, j, where, "a number");
    }
  }
  void read(const json& j, const std::string& where, Outcome& out) {
    std::string name;
    read(j, where, name);
    if (!error.empty()) return;
    if (auto outcome = outcome_from_string(name)) out = *outcome;
    else fail(where, fmt::format("unknown outcome '{}'", name));
  }
  void read(const json& j, const std::string& where, Visibility& out) {
    std::string name;
    read(j, where, name);
    if (name == "visible" || name == "hidden")
      out = name == "hidden" ? Visibility::hidden : Visibility::visible;
    else if (error.empty()) fail(where, fmt::format("expected 'visible' or 'hidden', found '{}'", name));
  }
  void read(const json& j, const std::string& where, Params& out) {
    if (!expect(j.is_object(), j, where, "an object")) return;
    out.clear();
    for (const auto& [name, value] : j.items()) read(value, where + "." + name, out[name]);
  }
  template <class T>
  void read(const json& j, const std::string& where, std::vector<T>& out) {
    if (!expect(j.is_array(), j, where, "an array")) return;
    out.assign(j.size(), T{});
    for (std::size_t i = 0; i < j.size(); ++i) read(j[i], fmt::format("{}[{}]", where, i), out[i]);
  }
  template <class T>
  void read(const json& j, const std::string& where, std::optional<T>& out) {
    if (j.is_null()) {
      out.reset();
      return;
    }
    out.emplace();
    read(j, where, *out);
  }
  bool object(const json& j, const std::string& where) {
    return expect(j.is_object(), j, where, "an object");
  }

  void read(const json& j, const std::string& where, Diagnostic& d) {
    if (!object(j, where)) return;
    get(j, where, "file", d.file);
    get(j, where, "line", d.line);
    get(j, where, "column", d.column);
    get(j, where, "severity", d.severity);
    get(j, where, "message", d.message);
  }
  void read(const json& j, const std::string& where, Mismatch& m) {
    if (!object(j, where)) return;
    get(j, where, "index", m.index);
    get(j, where, "coords", m.coords);
    get(j, where, "expected", m.expected);
    get(j, where, "actual", m.actual);
  }
  void read(const json& j, const std::string& where, Comparison& c) {
    if (!object(j, where)) return;
    get(j, where, "array", c.array);
    get(j, where, "wrong", c.wrong);
    get(j, where, "nonfinite", c.nonfinite);
    // Left out for hidden cases in what students see (report_to_json).
    get(j, where, "checked", c.checked, Presence::optional);
    get(j, where, "max_abs_error", c.max_abs_error, Presence::optional);
    get(j, where, "max_rel_error", c.max_rel_error, Presence::optional);
    get(j, where, "first", c.first, Presence::optional);
    get(j, where, "pattern", c.pattern, Presence::optional);
  }
  void read(const json& j, const std::string& where, CaseResult& c) {
    if (!object(j, where)) return;
    get(j, where, "id", c.id);
    get(j, where, "step", c.step);
    get(j, where, "visibility", c.visibility);
    get(j, where, "outcome", c.outcome);
    get(j, where, "points", c.points);
    get(j, where, "max_points", c.max_points);
    get(j, where, "seconds", c.seconds);
    get(j, where, "comparisons", c.comparisons);
    const Presence details =
        c.visibility == Visibility::hidden ? Presence::optional : Presence::required;
    get(j, where, "params", c.params, details);
    get(j, where, "seed", c.seed, details);
    get(j, where, "message", c.message, details);
  }
  void read(const json& j, const std::string& where, TimingStats& t) {
    if (!object(j, where)) return;
    get(j, where, "median_ms", t.median_ms);
    get(j, where, "min_ms", t.min_ms);
    get(j, where, "max_ms", t.max_ms);
    get(j, where, "q1_ms", t.q1_ms);
    get(j, where, "q3_ms", t.q3_ms);
    get(j, where, "rse", t.rse);
    get(j, where, "samples", t.samples);
    get(j, where, "wall_clock_samples", t.wall_clock_samples);
  }

  void read(const json& j, const std::string& where, BuildResult& b) {
    if (!object(j, where)) return;
    get(j, where, "outcome", b.outcome);
    get(j, where, "arch", b.arch);
    get(j, where, "seconds", b.seconds);
    get(j, where, "commands", b.commands);
    get(j, where, "diagnostics", b.diagnostics);
    get(j, where, "message", b.message);
    get(j, where, "log", b.log);
  }
  void read(const json& j, const std::string& where, PerformanceResult& p) {
    if (!object(j, where)) return;
    get(j, where, "step", p.step);
    get(j, where, "reference", p.reference);
    get(j, where, "params", p.params);
    get(j, where, "outcome", p.outcome);
    get(j, where, "student", p.student);
    get(j, where, "reference_time", p.reference_time);
    if (j.contains("reference_alone")) get(j, where, "reference_alone", p.reference_alone);
    get(j, where, "ratio", p.ratio);
    get(j, where, "rate_unit", p.rate_unit);
    get(j, where, "student_rate", p.student_rate);
    get(j, where, "reference_rate", p.reference_rate);
    get(j, where, "percent_of_ceiling", p.percent_of_ceiling);
    get(j, where, "points", p.points);
    get(j, where, "max_points", p.max_points);
    get(j, where, "flags", p.flags);
    get(j, where, "message", p.message);
    get(j, where, "diagnosis", p.diagnosis, Presence::optional);  // records from before diagnosis have none
  }
  void read(const json& j, const std::string& where, PerformanceDiagnosis& d) {
    if (!object(j, where)) return;
    get(j, where, "cause", d.cause);
    get(j, where, "message", d.message);
    get(j, where, "details", d.details);
    get(j, where, "kernel", d.kernel);
    get(j, where, "location", d.location);
  }
  void read(const json& j, const std::string& where, Environment& e) {
    if (!object(j, where)) return;
    get(j, where, "backend", e.backend);
    get(j, where, "gpu", e.gpu);
    get(j, where, "compute_capability", e.compute_capability);
    get(j, where, "driver", e.driver);
    get(j, where, "cuda_runtime", e.cuda_runtime);
    get(j, where, "nvcc", e.nvcc);
    get(j, where, "host", e.host);
    get(j, where, "sm_clock_mhz", e.sm_clock_mhz);
    get(j, where, "memory_clock_mhz", e.memory_clock_mhz);
  }
};

}  // namespace

Result<GradeReport> report_from_json(const nlohmann::json& json) {
  if (!json.is_object())
    return fail(fmt::format("a grade report must be a JSON object, found {}", json.type_name()));
  GradeReport report;
  Reader r;
  r.get(json, "", "cugrade_version", report.cugrade_version);
  r.get(json, "", "assignment", report.assignment);
  r.get(json, "", "title", report.title);
  r.get(json, "", "submission", report.submission);
  r.get(json, "", "submission_sha256", report.submission_sha256);
  r.get(json, "", "seed", report.seed);
  r.get(json, "", "started_at", report.started_at);
  r.get(json, "", "environment", report.environment);
  r.get(json, "", "build", report.build);
  r.get(json, "", "cases", report.cases);
  r.get(json, "", "performance", report.performance);
  r.get(json, "", "outcome", report.outcome);
  r.get(json, "", "gradable", report.gradable);
  r.get(json, "", "score", report.score);
  r.get(json, "", "max_score", report.max_score);
  r.get(json, "", "notes", report.notes);
  if (!r.error.empty()) return fail("invalid grade report: " + r.error);
  return report;
}

}  // namespace cugrade
