#include "report/markdown_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/report_format.hpp"
#include "report/step_summary.hpp"

namespace cugrade {
namespace {

/// Diagnostics shown before the rest is left to the build log (as in the console report).
constexpr std::size_t kShownDiagnostics = 10;

std::string escape(std::string_view text) { return escape_markdown(text); }

std::string table_row(const std::vector<std::string>& cells) {
  return fmt::format("| {} |\n", fmt::join(cells, " | "));
}

std::string table_rule(std::size_t columns) {
  std::string out = "|";
  for (std::size_t i = 0; i < columns; ++i) out += "---|";
  return out + "\n";
}

std::string status_cell(Outcome outcome) {
  const std::string word = status_word(outcome);
  if (word == "PASS") return "✅ PASS";
  return word == "FAIL" ? "❌ FAIL" : "⚠️ SKIP";
}

void render_header(std::string& out, const GradeReport& r) {
  out += fmt::format("## {}{}\n\n", escape(r.assignment), r.title.empty() ? "" : " — " + escape(r.title));
  const std::string total = fmt::format("**Score: {} / {}**", format_points(r.score),
                                        format_points(r.max_score));
  if (r.gradable)
    out += fmt::format("{} · outcome `{}`\n\n", total, to_string(r.outcome));
  else
    out += fmt::format("{} — not gradable (`{}`)\n\n", total, to_string(r.outcome));
}

void render_steps(std::string& out, const GradeReport& r) {
  const std::vector<StepSummary> rows = summarize_steps(r);
  if (rows.empty()) return;
  out += table_row({"", "step", "passed", "correctness", "performance", "diagnosis"}) + table_rule(6);
  for (const StepSummary& row : rows)
    out += table_row({status_cell(row.status), escape(row.step), fmt::format("{}/{}", row.passed, row.cases),
                      format_score(row.points, row.max_points),
                      row.performance_max ? format_score(*row.performance_points, *row.performance_max)
                                          : "not graded",
                      escape(row.diagnosis)});
  out += "\n";
}

void render_facts(std::string& out, const GradeReport& r) {
  const Environment& e = r.environment;
  std::vector<std::pair<std::string, std::string>> facts{{"backend", e.backend}};
  if (!e.gpu.empty())
    facts.emplace_back("GPU", e.compute_capability.empty()
                                  ? e.gpu
                                  : fmt::format("{} (compute {})", e.gpu, e.compute_capability));
  facts.emplace_back("driver", e.driver);
  facts.emplace_back("nvcc", e.nvcc);
  facts.emplace_back("submission", fmt::format("{}", fmt::join(r.submission, ", ")));
  facts.emplace_back("seed", std::to_string(r.seed));
  facts.emplace_back("started", r.started_at);
  facts.emplace_back("cugrade", r.cugrade_version);
  out += "| | |\n|---|---|\n";
  for (const auto& [name, value] : facts)
    if (!value.empty()) out += table_row({name, escape(value)});
  out += "\n";
}

void render_build(std::string& out, const BuildResult& b) {
  const std::string arch = b.arch.empty() ? "" : ", " + b.arch;
  out += "### Build\n\n";
  if (b.outcome == Outcome::passed)
    out += fmt::format("✅ ok ({:.1f} s{})\n\n", b.seconds, arch);
  else
    out += fmt::format("❌ `{}` ({:.1f} s{})\n\n", to_string(b.outcome), b.seconds, arch);
  if (!b.diagnostics.empty()) {
    // Fenced, so compiler text is shown as it is, without escaping.
    out += "```text\n";
    for (std::size_t i = 0; i < b.diagnostics.size() && i < kShownDiagnostics; ++i) {
      out += format_diagnostic(b.diagnostics[i]) + "\n";
      for (const std::string& quoted : diagnostic_source(b.diagnostics[i], b.log)) out += quoted + "\n";
    }
    if (b.diagnostics.size() > kShownDiagnostics)
      out += fmt::format("... and {} more\n", b.diagnostics.size() - kShownDiagnostics);
    out += "```\n\n";
  }
  if (!b.message.empty()) out += escape(b.message) + "\n\n";
}

std::string group_details(const SimilarCases& g) {
  std::vector<std::string> lines = similar_cases_details(g);
  for (std::string& line : lines) line = escape(line);
  return fmt::format("{}", fmt::join(lines, "<br>"));
}

// One row per group of alike cases: an empty template's hundred identical failures are one row.
void render_cases(std::string& out, const GradeReport& r) {
  if (r.cases.empty()) return;
  out += "### Correctness\n\n";
  out += table_row({"", "step", "cases", "points", "details"}) + table_rule(5);
  for (const StepSummary& row : summarize_steps(r))
    for (const SimilarCases& g : gather_cases(r, row.step))
      out += table_row({status_cell(g.outcome), escape(g.step), escape(similar_cases_label(g)),
                        format_score(g.points, g.max_points), group_details(g)});
  out += "\n";
}

void render_performance(std::string& out, const GradeReport& r) {
  if (r.performance.empty()) return;
  out += "### Performance\n\n";
  const std::vector<std::string> headings = performance_headings();
  out += table_row(headings) + table_rule(headings.size());
  for (const PerformanceResult& p : r.performance) {
    std::vector<std::string> cells = performance_cells(performance_row(p));
    for (std::string& cell : cells) cell = escape(cell);
    out += table_row(cells);
  }
  out += "\n";
  for (const PerformanceResult& p : r.performance)
    if (!p.message.empty()) out += fmt::format("- **{}**: {}\n", escape(p.step), escape(p.message));
  for (const PerformanceResult& p : r.performance) {
    if (!p.diagnosis) continue;
    out += fmt::format("- **{}**, why slower: {}\n", escape(p.step), escape(p.diagnosis->message));
    for (const std::string& line : p.diagnosis->details) out += fmt::format("  - {}\n", escape(line));
  }
  out += "\n";
}

}  // namespace

// Student messages and compiler text are not Markdown: a "|" would end a table cell, "<int>"
// would vanish as an HTML tag and "a*b*c" would turn italic. Escape what Markdown would act on.
std::string escape_markdown(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\n': out += "<br>"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\\': case '`': case '*': case '_': case '|': case '[': case ']':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string render_markdown(const GradeReport& report) {
  std::string out;
  render_header(out, report);
  render_steps(out, report);
  render_facts(out, report);
  render_build(out, report.build);
  // After a failed build nothing ran: the build error is the whole story.
  if (report.gradable) {
    render_cases(out, report);
    render_performance(out, report);
  }
  if (!report.notes.empty()) {
    out += "### Notes\n\n";
    for (const std::string& note : report.notes) out += "- " + escape(note) + "\n";
    out += "\n";
  }
  return out;
}

}  // namespace cugrade
