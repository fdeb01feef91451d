#include "bench/bench_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/bench_format.hpp"

namespace cugrade {
namespace {

/// Display width of UTF-8 text: one column per code point ("×", "—" and "µ" are one wide).
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& text, std::size_t to, bool right) {
  const std::string fill(to > width(text) ? to - width(text) : 0, ' ');
  return right ? fill + text : text + fill;
}

void console_table(std::string& out, const BenchTableResult& table) {
  std::vector<std::vector<std::string>> lines{bench_headings(table)};
  for (const auto& row : table.rows) lines.push_back(bench_cells(table, row));
  const std::vector<bool> numeric = bench_numeric_columns(table);
  std::vector<std::size_t> widths(lines.front().size(), 0);
  for (const auto& line : lines)
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], width(line[i]));
  for (const auto& line : lines) {
    std::string text = "  ";
    for (std::size_t i = 0; i < line.size(); ++i)
      text += (i ? "  " : "") + pad(line[i], widths[i], numeric[i]);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
}

/// A Markdown table cell: a '|' in text would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void markdown_table(std::string& out, const BenchTableResult& table) {
  std::string heading = "|", rule = "|";
  for (const auto& h : bench_headings(table)) heading += " " + cell(h) + " |";
  for (bool numeric : bench_numeric_columns(table)) rule += numeric ? "---:|" : "---|";
  out += heading + "\n" + rule + "\n";
  for (const auto& row : table.rows) {
    std::string line = "|";
    for (const auto& c : bench_cells(table, row)) line += " " + cell(c) + " |";
    out += line + "\n";
  }
}

}  // namespace

std::string render_bench_console(const BenchReport& report) {
  std::string out = "cugrade bench\n";
  for (const auto& line : bench_preamble(report)) out += line + "\n";
  for (const auto& assignment : report.assignments) {
    out += "\n" + assignment.id + " — " + assignment.title + "\n";
    // Nothing was timed: the tables would only repeat the reason row by row (the JSON keeps them).
    if (!assignment.problem.empty()) {
      out += "  not timed: " + assignment.problem + "\n";
      continue;
    }
    for (const auto& table : assignment.tables) {
      out += "\n  " + table.title + " (" + bench_table_caption(table) + ")\n";
      console_table(out, table);
      for (const auto& note : bench_footnotes(table)) out += "  note: " + note + "\n";
    }
  }
  return out;
}

std::string render_bench_markdown(const BenchReport& report) {
  std::string out = "# cugrade bench\n\n";
  for (const auto& line : bench_preamble(report)) out += line + "\n\n";
  for (const auto& assignment : report.assignments) {
    out += "## " + assignment.id + ": " + assignment.title + "\n\n";
    if (!assignment.problem.empty()) {
      out += "**Not timed:** " + assignment.problem + "\n\n";
      continue;
    }
    for (const auto& table : assignment.tables) {
      out += "### " + table.title + "\n\n" + bench_table_caption(table) + "\n\n";
      markdown_table(out, table);
      const auto notes = bench_footnotes(table);
      if (!notes.empty()) out += "\n";
      for (const auto& note : notes) out += "- " + note + "\n";
      out += "\n";
    }
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace cugrade
