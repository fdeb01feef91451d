#include "similarity/similarity_report.hpp"

#include <fmt/format.h>

#include "batch/gradebook.hpp"
#include "report/html_page.hpp"
#include "report/markup.hpp"
#include "similarity/base_code.hpp"

namespace cugrade {

namespace {

constexpr std::size_t kRunColours = 6;  // .r0 ... .r5 in the shared style sheet
constexpr int kContext = 3;             // lines shown around a run; the rest folded

std::string e(std::string_view text) { return escape_markup(text); }

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// One side of a pair: the student's text, each line in its run's colour or greyed as the
/// template's, lines far from any run folded into one line saying how many.
std::string code_column(const StudentCode& code, const std::vector<LineSpan>& base, const std::vector<LineSpan>& runs) {
  const std::vector<std::string> lines = split_lines(code.text);
  const int count = static_cast<int>(lines.size());
  std::vector<int> run_of(count + 2, -1);
  std::vector<bool> shown(count + 2, false), in_base(count + 2, false), run_start(count + 2, false);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const LineSpan s = runs[r];
    if (s.first >= 1 && s.first <= count) run_start[s.first] = true;
    for (int l = std::max(1, s.first); l <= std::min(count, s.last); ++l)
      if (run_of[l] < 0) run_of[l] = static_cast<int>(r);
    for (int l = std::max(1, s.first - kContext); l <= std::min(count, s.last + kContext); ++l) shown[l] = true;
  }
  for (const LineSpan& s : base)
    for (int l = std::max(1, s.first); l <= std::min(count, s.last); ++l) in_base[l] = true;
  const int base_count = covered_lines(base);
  std::string out = fmt::format("<div class=\"code\"><div class=\"who\">{} <span class=\"muted\">· {} line{}, {} of them "
                                "the template's</span></div>\n",
                                e(code.student), count, count == 1 ? "" : "s", base_count);
  std::size_t file = 0;
  int folded = 0;
  auto flush_fold = [&] {
    if (folded > 0) out += fmt::format("<div class=\"fold\">⋯ {} line{} not in a run ⋯</div>\n", folded, folded == 1 ? "" : "s");
    folded = 0;
  };
  for (int l = 1; l <= count; ++l) {
    while (file < code.files.size() && code.files[file].first_line == l) {
      flush_fold();
      out += fmt::format("<div class=\"file\">{}</div>\n", e(code.files[file].name));
      ++file;
    }
    if (!shown[l]) {
      ++folded;
      continue;
    }
    flush_fold();
    // The template's lines were emptied before comparing: greyed even where a run spans them.
    std::string cls = in_base[l]       ? "base"
                      : run_of[l] >= 0 ? fmt::format("r{}", static_cast<std::size_t>(run_of[l]) % kRunColours)
                                       : "";
    const std::string mark = run_start[l] && run_of[l] >= 0 ? fmt::format("<b>{}</b>", run_of[l] + 1) : "";
    out += fmt::format("<div{}><span class=\"ln\">{}{}</span>{}</div>\n", cls.empty() ? "" : " class=\"" + cls + "\"",
                       mark, l, e(lines[l - 1]));
  }
  flush_fold();
  return out + "</div>\n";
}

std::string pair_anchor(std::size_t rank) { return fmt::format("pair-{}", rank); }

}  // namespace

std::string similarity_csv(const ClassSimilarity& s) {
  std::string out = "rank,student_a,student_b,percent,a_in_b_percent,b_in_a_percent,run_tokens,runs,a_tokens,b_tokens\n";
  for (std::size_t i = 0; i < s.pairs.size(); ++i) {
    const SimilarPair& p = s.pairs[i];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", i + 1, csv_field(spreadsheet_text(s.students[p.a].student)),
                       csv_field(spreadsheet_text(s.students[p.b].student)), p.percent(), p.a_percent, p.b_percent,
                       p.run_tokens, p.runs.size(), s.tokens[p.a], s.tokens[p.b]);
  }
  return out;
}

std::string render_similarity_html(const ClassSimilarity& s, const SimilarityPageOptions& options) {
  const std::string title = (options.assignment.empty() ? std::string("Class") : options.assignment) + " — code similarity";
  std::string body = fmt::format("<header class=\"page\">\n<h1>{}</h1>\n", e(title));
  if (!options.subtitle.empty()) body += fmt::format("<p class=\"muted\">{}</p>\n", e(options.subtitle));
  body += "<p class=\"notice\">Evidence for a person to read, never a score. Solutions of one lecture look alike "
          "(the same indexing, the same tiling); a high share says where to look, and only the code shown says what "
          "happened. The template's lines were taken out before comparing.</p>\n";
  body += "<div class=\"cards\">\n";
  auto card = [&body](const std::string& value, const std::string& label) {
    body += fmt::format("<div class=\"card\"><div class=\"value\">{}</div><div class=\"label\">{}</div></div>\n", e(value), e(label));
  };
  card(std::to_string(s.students.size()), "students compared");
  card(std::to_string(s.pairs.size()), "pairs with a run in common");
  card(s.pairs.empty() ? "–" : fmt::format("{} %", s.pairs.front().percent()), "highest share");
  card(std::to_string(options.left_out.size()), "left out");
  body += "</div>\n";
  body += fmt::format("<p class=\"muted\">Compared by {}: each pair on its own, a run being at least {} tokens alike "
                      "(identifiers, numbers, comments and layout aside). Share: how much of one student's code "
                      "(template aside) also lies in the other's; a pair is ranked by the larger of its two shares.</p>\n",
                      e(s.tool.empty() ? "sim_c++" : s.tool), s.min_run);
  body += "</header>\n";

  body += "<section id=\"pairs\">\n<h2>Pairs, most alike first</h2>\n";
  if (s.pairs.empty()) {
    body += "<p>sim found no run in common between any two students.</p>\n";
  } else {
    body += "<div class=\"scroll\"><table><thead><tr><th class=\"num\">#</th><th>student</th><th>student</th>"
            "<th class=\"num\">share</th><th class=\"num\">first in second</th><th class=\"num\">second in first</th>"
            "<th class=\"num\">tokens in runs</th><th class=\"num\">runs</th></tr></thead><tbody>\n";
    const std::size_t rows = std::min(s.pairs.size(), options.table_rows);
    for (std::size_t i = 0; i < rows; ++i) {
      const SimilarPair& p = s.pairs[i];
      const std::string rank = i < options.side_by_side ? fmt::format("<a href=\"#{}\">{}</a>", pair_anchor(i + 1), i + 1)
                                                        : std::to_string(i + 1);
      body += fmt::format("<tr><td class=\"num\">{}</td><td>{}</td><td>{}</td><td class=\"num\"><span class=\"share\" "
                          "style=\"width:{}px\"></span> {} %</td><td class=\"num\">{} %</td><td class=\"num\">{} %</td>"
                          "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                          rank, e(s.students[p.a].student), e(s.students[p.b].student), p.percent() * 0.6, p.percent(),
                          p.a_percent, p.b_percent, p.run_tokens, p.runs.size());
    }
    body += "</tbody></table></div>\n";
    if (rows < s.pairs.size())
      body += fmt::format("<p class=\"muted\">{} more pairs in similarity.csv.</p>\n", s.pairs.size() - rows);
  }
  body += "</section>\n";

  for (std::size_t i = 0; i < std::min(s.pairs.size(), options.side_by_side); ++i) {
    const SimilarPair& p = s.pairs[i];
    std::vector<LineSpan> a_runs, b_runs;
    for (const SimRun& r : p.runs) {
      a_runs.push_back(r.a);
      b_runs.push_back(r.b);
    }
    body += fmt::format("<section id=\"{}\" class=\"pair\">\n<h2>#{} {} and {}: {} %</h2>\n", pair_anchor(i + 1), i + 1,
                        e(s.students[p.a].student), e(s.students[p.b].student), p.percent());
    body += fmt::format("<p class=\"muted\">{} % of the first's code lies in the second's, {} % of the second's in the "
                        "first's; {} run{} ({} tokens), numbered and coloured alike on both sides; the template's lines "
                        "greyed; lines far from a run folded.</p>\n",
                        p.a_percent, p.b_percent, p.runs.size(), p.runs.size() == 1 ? "" : "s", p.run_tokens);
    body += "<div class=\"sbs\">\n" + code_column(s.students[p.a], s.base[p.a], a_runs) +
            code_column(s.students[p.b], s.base[p.b], b_runs) + "</div>\n</section>\n";
  }
  if (!options.left_out.empty()) {
    body += "<section id=\"left-out\">\n<h2>Not compared</h2>\n<ul class=\"notes\">\n";
    for (const std::string& line : options.left_out) body += "<li>" + e(line) + "</li>\n";
    body += "</ul>\n</section>\n";
  }
  return html_document(title, body);
}

}  // namespace cugrade
