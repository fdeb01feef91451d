#include "report/report_format.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade {
namespace {

/// How many mismatches a comparison lists: enough to see a pattern, few enough to read.
constexpr std::size_t kShownMismatches = 5;

/// Decimals that give `value` four significant digits (none for 1000 and above).
int decimals_for(double value) {
  if (!(value > 0.0) || !std::isfinite(value)) return 3;
  return std::clamp(3 - static_cast<int>(std::floor(std::log10(value))), 0, 6);
}

std::string four_digits(double value) { return fmt::format("{:.{}f}", value, decimals_for(value)); }

// Kernels run from microseconds to seconds: sub-millisecond times read better in µs than as
// "0.002000 ms". The spread shares the median's decimals so the two line up.
std::string format_time(const TimingStats& t) {
  const bool micro = t.median_ms < 1.0;
  const double scale = micro ? 1000.0 : 1.0;
  const int decimals = decimals_for(t.median_ms * scale);
  return fmt::format("{:.{}f} ± {:.{}f} {}", t.median_ms * scale, decimals,
                     (t.q3_ms - t.q1_ms) / 2.0 * scale, decimals, micro ? "µs" : "ms");
}

}  // namespace

std::string format_points(double points) {
  std::string text = fmt::format("{:.2f}", points);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string format_score(double points, double max_points) {
  return format_points(points) + "/" + format_points(max_points);
}

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";  // not "-nan": outputs are poisoned with NaN bytes
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  return fmt::format("{:.6g}", value);
}

std::string format_coords(const Mismatch& mismatch) {
  const auto& c = mismatch.coords;
  if (c.size() == 2) return fmt::format("(row {}, col {})", c[0], c[1]);
  if (c.empty()) return fmt::format("[{}]", mismatch.index);
  return fmt::format("[{}]", fmt::join(c, ", "));
}

std::string describe_comparison(const Comparison& comparison) {
  std::string text =
      comparison.checked > 0
          ? fmt::format("{} of {} elements wrong ({} NaN/Inf)", comparison.wrong,
                        comparison.checked, comparison.nonfinite)
          : fmt::format("{} elements wrong ({} NaN/Inf)", comparison.wrong, comparison.nonfinite);
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < comparison.first.size() && i < kShownMismatches; ++i) {
    const Mismatch& m = comparison.first[i];
    shown.push_back(fmt::format("{} expected {} got {}", format_coords(m), format_value(m.expected),
                                format_value(m.actual)));
  }
  if (!shown.empty()) text += fmt::format("; first: {}", fmt::join(shown, ", "));
  return text;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string where = d.file;
  if (d.line > 0) where += fmt::format(":{}", d.line);
  if (d.line > 0 && d.column > 0) where += fmt::format(":{}", d.column);
  if (where.empty()) return fmt::format("{}: {}", d.severity, d.message);
  return fmt::format("{}: {}: {}", where, d.severity, d.message);
}

std::vector<std::string> diagnostic_source(const Diagnostic& d, std::string_view log) {
  // The log names files as the compiler saw them (staged copies), so the message is found by its
  // text and line number, not by its file name.
  const std::string line_number = std::to_string(d.line);
  std::vector<std::string> quoted;
  bool found = false;
  while (!log.empty()) {
    const std::size_t end = log.find('\n');
    std::string_view line = log.substr(0, end);
    log = end == std::string_view::npos ? std::string_view{} : log.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!found) {
      found = !d.message.empty() && line.find(d.message) != std::string_view::npos &&
              line.find(d.severity) != std::string_view::npos &&
              (d.line == 0 || line.find(line_number) < line.find(d.message));
      continue;
    }
    // A quote is indented; the next message, note or "compilation terminated." is not.
    if (line.empty() || line.front() != ' ' || line.find_first_not_of(' ') == std::string_view::npos) break;
    quoted.emplace_back(line);
    if (quoted.size() == 3) break;
  }
  return quoted;
}

std::string quoted_source_line(std::string_view text, std::size_t width) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "``";
  text = text.substr(first, text.find_last_not_of(" \t\r") + 1 - first);
  if (text.size() <= width) return "`" + std::string(text) + "`";
  std::size_t end = width;
  // Back up over UTF-8 continuation bytes (10xxxxxx) so that no character is cut in two.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return "`" + std::string(text.substr(0, end)) + "…`";
}

std::string status_word(Outcome outcome) {
  if (outcome == Outcome::passed) return "PASS";
  return is_student_outcome(outcome) ? "FAIL" : "SKIP";
}

std::string case_label(const CaseResult& c) {
  if (c.visibility == Visibility::hidden) return "hidden case";
  return fmt::format("{} seed={}", params_to_string(c.params), c.seed);
}

std::vector<std::string> case_detail_lines(const CaseResult& c) {
  if (c.outcome == Outcome::passed || c.visibility == Visibility::hidden) return {};
  const std::string message = c.message.empty() ? "" : ": " + c.message;
  if (!is_student_outcome(c.outcome))
    return {fmt::format("not graded ({}){}", to_string(c.outcome), message)};
  if (c.outcome != Outcome::wrong_answer) return {fmt::format("{}{}", to_string(c.outcome), message)};
  std::vector<std::string> lines;
  for (const Comparison& comparison : c.comparisons) {
    if (comparison.wrong == 0) continue;
    const std::string array = c.comparisons.size() > 1 ? comparison.array + ": " : "";
    lines.push_back(array + describe_comparison(comparison));
    if (!comparison.pattern.empty()) lines.push_back("pattern: " + comparison.pattern);
  }
  if (!c.message.empty()) lines.push_back(c.message);
  return lines;
}

PerformanceRow performance_row(const PerformanceResult& p) {
  PerformanceRow row;
  row.step = p.step;
  row.size = params_to_string(p.params);
  const bool timed = p.student.has_value() && p.outcome != Outcome::not_run;
  row.time = timed ? format_time(*p.student) : "-";
  row.reference = p.reference_time ? format_time(*p.reference_time) : "-";
  row.ratio = timed && p.ratio > 0.0 ? fmt::format("{:.2f}×", p.ratio) : "-";
  row.rate = timed && !p.rate_unit.empty()
                 ? fmt::format("{} {}", four_digits(p.student_rate), p.rate_unit)
                 : "-";
  row.ceiling = timed && p.percent_of_ceiling ? fmt::format("{:.1f} %", *p.percent_of_ceiling) : "";
  row.points = is_student_outcome(p.outcome) ? format_score(p.points, p.max_points) : "not graded";
  row.flags = fmt::format("{}", fmt::join(p.flags, ", "));
  return row;
}

std::vector<std::string> performance_headings() {
  return {"step", "size", "your time", "reference", "ratio", "your rate", "of ceiling", "points",
          "flags"};
}

std::vector<std::string> performance_cells(const PerformanceRow& row) {
  return {row.step,  row.size,    row.time,   row.reference, row.ratio,
          row.rate,  row.ceiling, row.points, row.flags};
}

}  // namespace cugrade
