#include "report/github_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <regex>
#include <utility>

#include "report/markup.hpp"
#include "report/report_format.hpp"
#include "report/step_summary.hpp"

namespace cugrade {
namespace {

/// GitHub shows at most 10 error and 10 warning annotations of one step; more are dropped
/// silently, so the rest are counted in a notice instead.
constexpr std::size_t kPerLevel = 10;

/// One workflow command: `::level prop=value,...::message`.
struct Annotation {
  std::string level;  ///< "error", "warning" or "notice"
  std::string file;
  int line = 0;
  int column = 0;
  std::string title;
  std::string message;
};

std::string command(const Annotation& a) {
  std::vector<std::string> properties;
  if (!a.file.empty()) properties.push_back("file=" + escape_github_property(a.file));
  if (!a.file.empty() && a.line > 0) properties.push_back(fmt::format("line={}", a.line));
  if (!a.file.empty() && a.line > 0 && a.column > 0) properties.push_back(fmt::format("col={}", a.column));
  if (!a.title.empty()) properties.push_back("title=" + escape_github_property(a.title));
  return fmt::format("::{}{}{}::{}\n", a.level, properties.empty() ? "" : " ",
                     fmt::join(properties, ","), escape_github_data(a.message));
}

std::string escape(std::string_view text, bool property) {
  // Invalid UTF-8 (a Latin-1 comment in compiler output) would garble the whole annotation.
  const std::string clean = clean_text(text);
  std::string out;
  for (char c : clean) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

void add_build(std::vector<Annotation>& out, const GradeReport& r) {
  const BuildResult& b = r.build;
  // nvcc's, also on the CPU backend where nvcc checks the files first (the build then names an sm_ arch).
  const std::string tool = r.environment.backend == "cpu" && !b.arch.starts_with("sm_") ? "CPU backend" : "nvcc";
  for (const Diagnostic& d : b.diagnostics)
    out.push_back({d.severity == "error" ? "error" : "warning", d.file, d.line, d.column,
                   fmt::format("{} {}", tool, d.severity), d.message});
  if (b.outcome == Outcome::passed || b.outcome == Outcome::not_run) return;
  // The build's own message (a missing entry point, a forbidden symbol) has no line to sit on.
  if (!b.message.empty() || b.diagnostics.empty())
    out.push_back({is_student_outcome(b.outcome) ? "error" : "warning",
                   r.submission.empty() ? "" : r.submission.front(), 0, 0,
                   fmt::format("build: {}", to_string(b.outcome)),
                   b.message.empty() ? std::string(to_string(b.outcome)) : b.message});
}

/// Where a failure of `groups` names a line of one of the student's files ("vecadd.cu:12", as the
/// CPU backend names an out-of-bounds access or a failed runtime call): that file and line.
/// Otherwise the submission's first file as a whole (line 0).
std::pair<std::string, int> student_line(const GradeReport& r, const std::vector<SimilarCases>& groups) {
  static const std::regex site(R"(([A-Za-z0-9_.+-]+\.(?:cu|cuh|h|hpp)):([0-9]{1,6}))");
  for (const SimilarCases& g : groups) {
    if (g.outcome == Outcome::passed || g.hidden) continue;
    for (const CaseResult* c : g.cases)
      for (auto it = std::sregex_iterator(c->message.begin(), c->message.end(), site); it != std::sregex_iterator();
           ++it)
        for (const std::string& file : r.submission)
          if (std::filesystem::path(file).filename() == (*it)[1].str()) return {file, std::stoi((*it)[2].str())};
  }
  return {r.submission.empty() ? "" : r.submission.front(), 0};
}

// One annotation per step that fell short, not one per case: an empty template would otherwise
// spend GitHub's ten error annotations on ten copies of one failure. It sits at the student's
// line where a failure names one (student_line), else on the submission's first file.
void add_steps(std::vector<Annotation>& out, const GradeReport& r) {
  for (const StepSummary& row : summarize_steps(r)) {
    std::vector<std::string> lines;
    bool student_failed = false;
    const std::vector<SimilarCases> groups = gather_cases(r, row.step);
    const auto [file, line_number] = student_line(r, groups);
    for (const SimilarCases& g : groups) {
      if (g.outcome == Outcome::passed) continue;
      student_failed = student_failed || is_student_outcome(g.outcome);
      lines.push_back(similar_cases_line(g));
      // Where the first of them is wrong (the line above already says how).
      if (!g.hidden && g.outcome == Outcome::wrong_answer)
        for (const Comparison& comparison : g.cases.front()->comparisons)
          if (comparison.wrong > 0) lines.push_back(comparison.array + ": " + describe_comparison(comparison));
    }
    for (const PerformanceResult& p : r.performance) {
      if (p.step != row.step || !is_student_outcome(p.outcome) || p.points + 1e-9 >= p.max_points) continue;
      const PerformanceRow perf = performance_row(p);
      std::string line = fmt::format("performance {}: your time {}, reference {}, ratio {}: {} points", perf.size,
                                     perf.time, perf.reference, perf.ratio, perf.points);
      if (!perf.flags.empty()) line += "; flags: " + perf.flags;
      if (!p.message.empty()) line += "; " + p.message;
      lines.push_back(line);
    }
    if (lines.empty()) continue;
    // A failed case is an error; a step short only of performance points, or whose only
    // failures are cugrade's own, a warning.
    out.push_back({student_failed ? "error" : "warning", file, line_number, 0,
                   fmt::format("{}: {} of {} cases passed", row.step, row.passed, row.cases),
                   fmt::format("{}\n{}", row.diagnosis, fmt::join(lines, "\n"))});
  }
}

}  // namespace

std::string escape_github_data(std::string_view text) { return escape(text, false); }

std::string escape_github_property(std::string_view text) { return escape(text, true); }

std::string render_github_annotations(const GradeReport& report,
                                      const std::map<std::string, std::string>& repository_paths) {
  std::vector<Annotation> all;
  add_build(all, report);
  if (report.gradable) add_steps(all, report);
  for (Annotation& a : all)
    if (const auto it = repository_paths.find(a.file); it != repository_paths.end()) a.file = it->second;
  std::string out;
  std::size_t errors = 0, warnings = 0, left_out = 0;
  for (const Annotation& a : all) {
    std::size_t& shown = a.level == "error" ? errors : warnings;
    if (shown == kPerLevel) {
      ++left_out;
      continue;
    }
    ++shown;
    out += command(a);
  }
  if (left_out > 0)
    out += command({"notice", "", 0, 0, "more results",
                    fmt::format("{} more annotations were left out (GitHub shows 10 errors and 10 "
                                "warnings per step); the job summary lists every step", left_out)});
  const std::string score = fmt::format("Score {} / {}", format_points(report.score),
                                        format_points(report.max_score));
  out += command({"notice", "", 0, 0, fmt::format("cugrade {}", report.assignment),
                  report.gradable ? fmt::format("{} ({})", score, to_string(report.outcome))
                                  : fmt::format("{}: not gradable ({})", score, to_string(report.outcome))});
  return out;
}

}  // namespace cugrade
