#include "report/console_report.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/printable.hpp"
#include "report/report_format.hpp"
#include "report/step_summary.hpp"

namespace cugrade {
namespace {

/// Diagnostics shown before the rest is left to the build log: the first errors are the ones
/// that matter, later ones are often consequences of them.
constexpr std::size_t kShownDiagnostics = 10;

/// Under a case line, aligned with the step name after "  PASS ".
constexpr std::string_view kDetailIndent = "         ";

/// A step's diagnosis is wrapped at this many characters, under its column, so that its row fits
/// a terminal and nothing of it is lost.
constexpr std::size_t kDiagnosisWidth = 72;

/// Wraps text in an ANSI style when colour is on.
class Style {
 public:
  explicit Style(bool colour) : colour_(colour) {}
  std::string green(std::string_view text) const { return wrap("32", text); }
  std::string red(std::string_view text) const { return wrap("31", text); }
  std::string yellow(std::string_view text) const { return wrap("33", text); }
  std::string bold(std::string_view text) const { return wrap("1", text); }

 private:
  std::string wrap(std::string_view code, std::string_view text) const {
    return colour_ ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : std::string(text);
  }
  bool colour_;
};

// Columns are aligned by characters on screen, not bytes: "±", "×" and "µ" take two bytes each.
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(std::string_view text, std::size_t width) {
  return std::string(text) + std::string(width - std::min(width, display_width(text)), ' ');
}

std::string coloured_status(Outcome outcome, const Style& style) {
  const std::string word = status_word(outcome);
  if (word == "PASS") return style.green(word);
  return word == "FAIL" ? style.red(word) : style.yellow(word);
}

void render_header(std::string& out, const GradeReport& r) {
  out += fmt::format("{}{} (cugrade {})\n", r.assignment, r.title.empty() ? "" : " — " + r.title,
                     r.cugrade_version);
  const Environment& e = r.environment;
  std::vector<std::string> where{"backend " + (e.backend.empty() ? "unknown" : e.backend)};
  if (!e.gpu.empty()) where.push_back(e.gpu);
  if (!e.compute_capability.empty()) where.push_back("compute " + e.compute_capability);
  if (!e.driver.empty()) where.push_back("driver " + e.driver);
  if (!e.nvcc.empty()) where.push_back("nvcc " + e.nvcc);
  out += fmt::format("{}\n", fmt::join(where, " · "));
  out += fmt::format("submission {} · seed {}{}\n\n", fmt::join(r.submission, ", "), r.seed,
                     r.started_at.empty() ? "" : " · " + r.started_at);
}

void render_build(std::string& out, const BuildResult& b, const Style& style) {
  const std::string arch = b.arch.empty() ? "" : ", " + b.arch;
  if (b.outcome == Outcome::passed)
    out += fmt::format("Build: {} ({:.1f} s{})\n", style.green("ok"), b.seconds, arch);
  else
    out += fmt::format("Build: {} ({:.1f} s{})\n", style.red(std::string(to_string(b.outcome))),
                       b.seconds, arch);
  for (std::size_t i = 0; i < b.diagnostics.size() && i < kShownDiagnostics; ++i) {
    out += fmt::format("  {}\n", format_diagnostic(b.diagnostics[i]));
    for (const std::string& quoted : diagnostic_source(b.diagnostics[i], b.log)) out += fmt::format("  {}\n", quoted);
  }
  if (b.diagnostics.size() > kShownDiagnostics)
    out += fmt::format("  ... and {} more\n", b.diagnostics.size() - kShownDiagnostics);
  if (!b.message.empty()) out += fmt::format("  {}\n", b.message);
  out += "\n";
}

void render_cases(std::string& out, const GradeReport& r, const Style& style) {
  if (r.cases.empty()) return;
  std::vector<std::vector<SimilarCases>> steps;
  std::size_t step_width = 0, label_width = 0;
  for (const StepSummary& row : summarize_steps(r)) {
    steps.push_back(gather_cases(r, row.step));
    for (const SimilarCases& g : steps.back()) {
      step_width = std::max(step_width, display_width(g.step));
      label_width = std::max(label_width, display_width(similar_cases_label(g)));
    }
  }
  out += "Correctness\n";
  for (const std::vector<SimilarCases>& groups : steps)
    for (const SimilarCases& g : groups) {
      out += fmt::format("  {} {}  {}   {}\n", coloured_status(g.outcome, style), pad(g.step, step_width),
                         pad(similar_cases_label(g), label_width), format_score(g.points, g.max_points));
      for (const std::string& line : similar_cases_details(g)) out += fmt::format("{}{}\n", kDetailIndent, line);
    }
  out += "\n";
}

void render_performance(std::string& out, const GradeReport& r, ConsoleDetail detail) {
  if (r.performance.empty()) return;
  std::vector<std::vector<std::string>> rows{performance_headings()};
  for (const PerformanceResult& p : r.performance)
    rows.push_back(performance_cells(performance_row(p)));
  // A column that is empty in every row (no calibration, no flags) is left out.
  std::vector<std::size_t> widths(rows[0].size(), 0);
  std::vector<bool> used(rows[0].size(), false);
  for (std::size_t row = 0; row < rows.size(); ++row)
    for (std::size_t col = 0; col < rows[row].size(); ++col) {
      widths[col] = std::max(widths[col], display_width(rows[row][col]));
      used[col] = used[col] || (row > 0 && !rows[row][col].empty());
    }
  out += "Performance\n";
  for (const auto& cells : rows) {
    std::string line = " ";
    for (std::size_t col = 0; col < cells.size(); ++col)
      if (used[col]) line += " " + pad(cells[col], widths[col]) + " ";
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  for (const PerformanceResult& p : r.performance)
    if (!p.message.empty()) out += fmt::format("  {}: {}\n", p.step, p.message);
  // Why a step is slower (Nsight Compute's counters), its further findings and numbers with -v.
  for (const PerformanceResult& p : r.performance) {
    if (!p.diagnosis) continue;
    out += fmt::format("  {}: why slower: {}\n", p.step, p.diagnosis->message);
    if (detail == ConsoleDetail::every_case)
      for (const std::string& line : p.diagnosis->details) out += fmt::format("{}{}\n", kDetailIndent, line);
  }
  out += "\n";
}

/// `text` in lines of at most `width` characters, broken at blanks (a word longer than a line
/// has one to itself).
std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    std::string& line = lines.back();
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) lines.emplace_back(word);
    else line += (line.empty() ? "" : " ") + std::string(word);
    start = end + 1;
  }
  return lines;
}

/// `r` with every text a student's file or program could have put in it made terminal_text(): a
/// compiler's quote of their line, a runner's message, their file names. Escape sequences in
/// them would otherwise drive the terminal of whoever reads the report (a TA's too).
GradeReport terminal_safe(GradeReport r) {
  const auto clean = [](std::string& text) { text = terminal_text(text); };
  clean(r.title);
  for (auto& file : r.submission) clean(file);
  clean(r.build.message);
  clean(r.build.log);
  for (auto& d : r.build.diagnostics) {
    clean(d.file);
    clean(d.message);
  }
  for (auto& c : r.cases) {
    clean(c.id);
    clean(c.message);
    for (auto& comparison : c.comparisons) {
      clean(comparison.array);
      clean(comparison.pattern);
    }
  }
  for (auto& p : r.performance) {
    clean(p.message);
    for (auto& flag : p.flags) clean(flag);
    if (p.diagnosis) {
      clean(p.diagnosis->message);
      for (auto& detail : p.diagnosis->details) clean(detail);
      clean(p.diagnosis->kernel);
      clean(p.diagnosis->location);
    }
  }
  for (auto& note : r.notes) clean(note);
  return r;
}

void render_steps(std::string& out, const GradeReport& r, const Style& style, ConsoleDetail detail) {
  const std::vector<StepSummary> rows = summarize_steps(r);
  if (rows.empty()) return;
  std::vector<std::vector<std::string>> cells{{"step", "passed", "correctness", "performance", "diagnosis"}};
  for (const StepSummary& row : rows)
    cells.push_back({row.step, fmt::format("{}/{}", row.passed, row.cases), format_score(row.points, row.max_points),
                     row.performance_max ? format_score(*row.performance_points, *row.performance_max) : "not graded",
                     row.diagnosis});
  std::vector<std::size_t> widths(cells[0].size(), 0);
  for (const auto& line : cells)
    for (std::size_t col = 0; col + 1 < line.size(); ++col) widths[col] = std::max(widths[col], display_width(line[col]));
  out += "Steps\n";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // The status word is coloured, so it is padded by hand: "PASS", "FAIL" and "SKIP" are 4 wide.
    std::string line = i == 0 ? std::string(8, ' ') : "  " + coloured_status(rows[i - 1].status, style) + "  ";
    for (std::size_t col = 0; col + 1 < cells[i].size(); ++col) line += pad(cells[i][col], widths[col]) + "  ";
    const std::vector<std::string> diagnosis = wrap_words(cells[i].back(), kDiagnosisWidth);
    out += line + diagnosis.front() + "\n";
    // Later lines of the diagnosis under its first (the status word is 4 wide, uncoloured).
    const std::size_t indent = 8 + std::accumulate(widths.begin(), widths.end() - 1, std::size_t{0},
                                                   [](std::size_t sum, std::size_t w) { return sum + w + 2; });
    for (std::size_t k = 1; k < diagnosis.size(); ++k) out += std::string(indent, ' ') + diagnosis[k] + "\n";
  }
  if (detail == ConsoleDetail::summary && r.gradable &&
      std::any_of(rows.begin(), rows.end(), [](const StepSummary& row) { return row.passed < row.cases; }))
    out += "  (each case in detail: run cugrade check again with -v)\n";
  out += "\n";
}

}  // namespace

std::string render_console(const GradeReport& given, bool colour, ConsoleDetail detail) {
  const GradeReport report = terminal_safe(given);
  const Style style(colour);
  std::string out;
  render_header(out, report);
  render_build(out, report.build, style);
  // After a failed build nothing ran: listing every case as skipped would bury the error.
  if (report.gradable) {
    if (detail == ConsoleDetail::every_case) render_cases(out, report, style);
    render_performance(out, report, detail);
  }
  if (!report.notes.empty()) {
    out += "Notes\n";
    for (const std::string& note : report.notes) out += fmt::format("  - {}\n", note);
    out += "\n";
  }
  render_steps(out, report, style, detail);
  const std::string total = fmt::format("Score: {} / {}", format_points(report.score),
                                        format_points(report.max_score));
  if (report.gradable)
    out += style.bold(total) + "\n";
  else
    out += style.bold(fmt::format("{} — not gradable ({})", total, to_string(report.outcome))) + "\n";
  return out;
}

}  // namespace cugrade
