#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html_page.hpp"
#include "report/markup.hpp"
#include "report/report_format.hpp"
#include "report/step_summary.hpp"
#include "report/svg_chart.hpp"

namespace cugrade {
namespace {

/// Diagnostics shown in full, as in the console and Markdown reports.
constexpr std::size_t kShownDiagnostics = 10;

std::string e(std::string_view text) { return escape_markup(text); }

/// "low", "mid" or "" (high): the colour of the score meter.
std::string_view meter_class(double fraction) {
  if (fraction < 0.5) return "low";
  return fraction < 0.8 ? "mid" : "";
}

void render_header(std::string& out, const GradeReport& r) {
  out += "<header class=\"page\">\n";
  out += fmt::format("<h1>{}{}</h1>\n", e(r.assignment),
                     r.title.empty() ? "" : fmt::format(" <span class=\"subtitle\">— {}</span>", e(r.title)));
  const double fraction = r.max_score > 0 ? std::clamp(r.score / r.max_score, 0.0, 1.0) : 0.0;
  out += fmt::format("<div class=\"score\"><span class=\"big\">{}</span><span>/ {} points</span> {}",
                     format_points(r.score), format_points(r.max_score), html_status_badge(r.outcome));
  out += r.gradable ? fmt::format(" <span class=\"muted\">outcome {}</span>", to_string(r.outcome))
                    : fmt::format(" <strong>not gradable</strong> <span class=\"muted\">({})</span>",
                                  to_string(r.outcome));
  out += "</div>\n";
  out += fmt::format("<div class=\"meter {}\"><div style=\"width:{:.1f}%\"></div></div>\n",
                     meter_class(fraction), fraction * 100.0);
  const Environment& env = r.environment;
  std::vector<std::pair<std::string, std::string>> facts{{"backend", env.backend}};
  if (!env.gpu.empty())
    facts.emplace_back("GPU", env.compute_capability.empty()
                                  ? env.gpu
                                  : fmt::format("{} (compute {})", env.gpu, env.compute_capability));
  facts.emplace_back("driver", env.driver);
  facts.emplace_back("nvcc", env.nvcc);
  facts.emplace_back("submission", fmt::format("{}", fmt::join(r.submission, ", ")));
  facts.emplace_back("seed", std::to_string(r.seed));
  facts.emplace_back("started", r.started_at);
  out += "<dl class=\"facts\">\n";
  for (const auto& [name, value] : facts)
    if (!value.empty()) out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", name, e(value));
  out += "</dl>\n</header>\n";
}

/// The report in brief: one row per step, before any detail.
void render_steps(std::string& out, const GradeReport& r) {
  const std::vector<StepSummary> rows = summarize_steps(r);
  if (rows.empty()) return;
  out += "<section id=\"steps\">\n<h2>Steps</h2>\n";
  out += "<table class=\"steps\"><thead><tr><th></th><th>step</th><th class=\"num\">passed</th>"
         "<th class=\"num\">correctness</th><th class=\"num\">performance</th><th>diagnosis</th>"
         "</tr></thead><tbody>\n";
  for (const StepSummary& row : rows)
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}/{}</td>"
                       "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"diagnosis\">{}</td></tr>\n",
                       html_status_class(row.status), html_status_badge(row.status), e(row.step), row.passed,
                       row.cases, format_score(row.points, row.max_points),
                       row.performance_max ? format_score(*row.performance_points, *row.performance_max)
                                           : "not graded",
                       e(row.diagnosis));
  out += "</tbody></table>\n</section>\n";
}

void render_build(std::string& out, const BuildResult& b) {
  out += "<section id=\"build\">\n<h2>Build</h2>\n";
  const std::string arch = b.arch.empty() ? "" : ", " + b.arch;
  out += fmt::format("<p>{} {} <span class=\"muted\">({:.1f} s{})</span></p>\n",
                     html_status_badge(b.outcome),
                     b.outcome == Outcome::passed ? "compiled and linked" : e(to_string(b.outcome)),
                     b.seconds, e(arch));
  if (!b.diagnostics.empty()) {
    out += "<pre>";
    for (std::size_t i = 0; i < b.diagnostics.size() && i < kShownDiagnostics; ++i) {
      out += e(format_diagnostic(b.diagnostics[i])) + "\n";
      for (const std::string& quoted : diagnostic_source(b.diagnostics[i], b.log)) out += e(quoted) + "\n";
    }
    if (b.diagnostics.size() > kShownDiagnostics)
      out += fmt::format("... and {} more\n", b.diagnostics.size() - kShownDiagnostics);
    out += "</pre>\n";
  }
  if (!b.message.empty()) out += fmt::format("<p>{}</p>\n", e(b.message));
  out += "</section>\n";
}

/// The first mismatches of one wrong array as a table: where, expected, got.
void render_mismatches(std::string& out, const Comparison& c) {
  if (c.first.empty()) return;
  out += "<table><thead><tr><th>element</th><th class=\"num\">expected</th>"
         "<th class=\"num\">got</th></tr></thead><tbody>\n";
  for (const Mismatch& m : c.first)
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                       e(format_coords(m)), e(format_value(m.expected)), e(format_value(m.actual)));
  out += "</tbody></table>\n";
}

/// One group of alike failed visible cases in full: what went wrong and, for its first case, per
/// wrong array its counts, errors, pattern and first mismatches, and the hint.
void render_failure(std::string& out, const SimilarCases& g) {
  const CaseResult& c = *g.cases.front();
  out += fmt::format("<div class=\"failure\" id=\"case-{}\">\n<h3>{} {} · <code>{}</code></h3>\n",
                     e(c.id), html_status_badge(g.outcome), e(g.step), e(similar_cases_label(g)));
  if (g.cases.size() > 1) {
    out += fmt::format("<p>{}</p>\n", e(similar_cases_details(g).front()));
    if (c.outcome != Outcome::wrong_answer) {
      out += "</div>\n";
      return;
    }
    out += fmt::format("<p class=\"muted\">The first of them, <code>{}</code>:</p>\n", e(case_label(c)));
  } else if (c.outcome != Outcome::wrong_answer) {
    for (const std::string& line : case_detail_lines(c)) out += fmt::format("<p>{}</p>\n", e(line));
    out += "</div>\n";
    return;
  }
  for (const Comparison& comparison : c.comparisons) {
    if (comparison.wrong == 0) continue;
    // The largest error is over finite elements: with every wrong one NaN or Inf it says nothing.
    const std::string largest =
        comparison.wrong > comparison.nonfinite
            ? fmt::format("; largest error {} (relative {})", format_value(comparison.max_abs_error),
                          format_value(comparison.max_rel_error))
            : "";
    out += fmt::format("<p><strong>{}</strong>: {} of {} elements wrong ({} NaN/Inf){}</p>\n",
                       e(comparison.array), comparison.wrong, comparison.checked,
                       comparison.nonfinite, e(largest));
    if (!comparison.pattern.empty() && g.cases.size() == 1)
      out += fmt::format("<p class=\"pattern\">pattern: {}</p>\n", e(comparison.pattern));
    render_mismatches(out, comparison);
  }
  if (!c.message.empty() && g.cases.size() == 1) out += fmt::format("<p>{}</p>\n", e(c.message));
  out += "</div>\n";
}

// One row per group of alike cases: an empty template's hundred identical failures are one row.
void render_cases(std::string& out, const GradeReport& r) {
  if (r.cases.empty()) return;
  const auto passed = std::count_if(r.cases.begin(), r.cases.end(),
                                    [](const CaseResult& c) { return c.outcome == Outcome::passed; });
  std::vector<SimilarCases> groups;
  for (const StepSummary& row : summarize_steps(r))
    for (SimilarCases& g : gather_cases(r, row.step)) groups.push_back(std::move(g));
  out += "<section id=\"correctness\">\n<h2>Correctness</h2>\n";
  out += fmt::format("<p>{} of {} cases passed.</p>\n", passed, r.cases.size());
  out += "<table><thead><tr><th></th><th>step</th><th>cases</th><th>outcome</th>"
         "<th class=\"num\">points</th></tr></thead><tbody>\n";
  for (const SimilarCases& g : groups)
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td class=\"num\">{}</td></tr>\n",
                       html_status_class(g.outcome), html_status_badge(g.outcome), e(g.step),
                       e(similar_cases_label(g)), to_string(g.outcome), format_score(g.points, g.max_points));
  out += "</tbody></table>\n";
  // The details of every failed visible group after the table, so the table stays scannable.
  for (const SimilarCases& g : groups)
    if (g.outcome != Outcome::passed && !g.hidden) render_failure(out, g);
  out += "</section>\n";
}

TimingBarGroup timing_group(const PerformanceResult& p, const PerformanceRow& row) {
  TimingBarGroup g;
  g.label = fmt::format("{} · {}", p.step, row.size);
  std::vector<std::string> detail;
  if (row.ratio != "-") detail.push_back(row.ratio + " the reference's speed");
  if (!row.rate.empty() && row.rate != "-") detail.push_back(row.rate);
  detail.push_back(row.points);
  g.detail = fmt::format("{}", fmt::join(detail, " · "));
  g.student = *p.student;
  g.student_text = row.time;
  g.reference = p.reference_time;
  g.reference_text = row.reference;
  return g;
}

void render_performance(std::string& out, const GradeReport& r) {
  if (r.performance.empty()) return;
  out += "<section id=\"performance\">\n<h2>Performance</h2>\n";
  std::vector<TimingBarGroup> groups;
  for (const PerformanceResult& p : r.performance)
    if (p.student && p.outcome != Outcome::not_run) groups.push_back(timing_group(p, performance_row(p)));
  if (!groups.empty()) {
    out += "<div class=\"legend\"><span><span class=\"swatch you\"></span>"
           "your kernel</span><span><span class=\"swatch ref\"></span>"
           "reference</span><span>median time; the whisker spans the middle half of the "
           "samples</span></div>\n";
    out += svg_timing_chart(groups);
  }
  out += "<div class=\"scroll\"><table class=\"perf\"><thead><tr>";
  const std::vector<std::string> headings = performance_headings();
  for (const std::string& h : headings) out += fmt::format("<th>{}</th>", e(h));
  out += "</tr></thead><tbody>\n";
  for (const PerformanceResult& p : r.performance) {
    out += "<tr>";
    for (const std::string& cell : performance_cells(performance_row(p)))
      out += fmt::format("<td>{}</td>", e(cell));
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  for (const PerformanceResult& p : r.performance)
    if (!p.message.empty())
      out += fmt::format("<p><strong>{}</strong>: {}</p>\n", e(p.step), e(p.message));
  for (const PerformanceResult& p : r.performance) {
    if (!p.diagnosis) continue;
    out += fmt::format("<div class=\"diagnosis\"><p><strong>{}</strong>, why slower: {}</p>", e(p.step),
                       e(p.diagnosis->message));
    if (!p.diagnosis->details.empty()) {
      out += "<ul>";
      for (const std::string& line : p.diagnosis->details) out += fmt::format("<li>{}</li>", e(line));
      out += "</ul>";
    }
    out += "</div>\n";
  }
  out += "</section>\n";
}

}  // namespace

std::string render_html(const GradeReport& report) {
  std::string body;
  render_header(body, report);
  render_steps(body, report);
  render_build(body, report.build);
  // After a failed build nothing ran: the build error is the whole story (as in every report).
  if (report.gradable) {
    render_cases(body, report);
    render_performance(body, report);
  }
  if (!report.notes.empty()) {
    body += "<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n";
    for (const std::string& note : report.notes) body += fmt::format("<li>{}</li>\n", e(note));
    body += "</ul>\n</section>\n";
  }
  body += fmt::format("<footer>cugrade {} · submission sha256 {}</footer>\n",
                      e(report.cugrade_version), e(report.submission_sha256.empty()
                                                        ? std::string("-")
                                                        : report.submission_sha256));
  const std::string title = fmt::format("{} — {}/{}", report.assignment,
                                        format_points(report.score), format_points(report.max_score));
  return html_document(title, body);
}

}  // namespace cugrade
