#include "report/leaderboard_page.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/html_page.hpp"
#include "report/markup.hpp"

namespace cugrade {
namespace {

std::string e(std::string_view text) { return escape_markup(text); }

std::string time_text(double ms) {
  return ms >= 1.0 ? fmt::format("{:.3f} ms", ms) : fmt::format("{:.1f} µs", ms * 1000.0);
}

/// Four significant digits, never an exponent (as the student's report writes rates).
std::string rate_text(double rate, std::string_view unit) {
  const int decimals = rate >= 1000.0 ? 0 : rate >= 100.0 ? 1 : rate >= 10.0 ? 2 : 3;
  return fmt::format("{:.{}f} {}", rate, decimals, e(unit));
}

std::size_t ranked_students(const Leaderboard& board) {
  std::vector<std::string> names;
  for (const LeaderboardBoard& b : board.boards)
    for (const LeaderboardRow& row : b.rows) names.push_back(row.name);
  std::sort(names.begin(), names.end());
  return static_cast<std::size_t>(std::unique(names.begin(), names.end()) - names.begin());
}

void render_header(std::string& out, const Leaderboard& board) {
  out += fmt::format("<header class=\"page\">\n<h1>{} — speed leaderboard{}</h1>\n", e(board.assignment),
                     board.title.empty() ? "" : fmt::format(" <span class=\"subtitle\">· {}</span>", e(board.title)));
  out += fmt::format("<p class=\"muted\">{} of {} graded submission{} on at least one board. ", ranked_students(board),
                     board.students, board.students == 1 ? "" : "s");
  if (board.real_names)
    out += "Students are named by their ids (<code>--leaderboard-names</code>): keep this page to the course staff.";
  else if (board.unnamed_reason.empty())
    out += "Students appear under pseudonyms derived from the course secret: the same student has the same "
           "name in every run and every assignment of the course, and no one can work back from it to an id "
           "without the secret.";
  out += "</p>\n<p class=\"muted\">Only sealed runs on a GPU whose every case passed count, and of those only "
         "the timed steps whose timing raised no flag. Ranked by the kernel's median time, fastest first; "
         "ratio is the reference's time over the student's in the same session (above 1: faster than the "
         "reference).</p>\n</header>\n";
}

void render_board(std::string& out, const LeaderboardBoard& board) {
  out += fmt::format("<section class=\"board\">\n<h2>{} <span class=\"muted\">· {}</span></h2>\n", e(board.step),
                     e(board.size));
  if (board.rows.empty()) {
    out += "<p>No submission qualifies for this step yet.</p>\n</section>\n";
    return;
  }
  out += "<div class=\"scroll\"><table class=\"leaderboard\" style=\"width: auto; min-width: 60%\"><thead><tr><th class=\"num\">rank</th><th>student</th>"
         "<th class=\"num\">time</th><th class=\"num\">ratio</th><th class=\"num\">rate</th>"
         "<th class=\"num\">reference</th></tr></thead><tbody>\n";
  for (const LeaderboardRow& row : board.rows) {
    const LeaderboardTime& t = row.time;
    out += fmt::format(
        "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td>"
        "<td class=\"num\">{:.2f}×</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        row.rank, e(row.name), time_text(t.median_ms), t.ratio,
        t.rate_unit.empty() ? std::string("–") : rate_text(t.rate, t.rate_unit),
        t.reference_ms > 0.0 ? time_text(t.reference_ms) : std::string("–"));
  }
  out += "</tbody></table></div>\n</section>\n";
}

void render_left_out(std::string& out, const Leaderboard& board) {
  if (board.left_out.empty()) return;
  out += "<section id=\"left-out\">\n<h2>Not on the boards</h2>\n<table style=\"width: auto; min-width: 40%\"><thead><tr><th>why</th>"
         "<th class=\"num\">submissions</th></tr></thead><tbody>\n";
  for (const LeaderboardLeftOut& left : board.left_out)
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>\n", e(left.reason), left.count);
  out += "</tbody></table>\n</section>\n";
}

}  // namespace

std::string render_leaderboard_html(const Leaderboard& board) {
  std::string out;
  render_header(out, board);
  const bool anyone = ranked_students(board) > 0;
  if (!board.unnamed_reason.empty()) {
    out += fmt::format("<section id=\"nobody\">\n<h2>Nobody is listed</h2>\n<p>{}</p>\n</section>\n",
                       e(board.unnamed_reason));
  } else if (!anyone) {
    const bool on_cpu = std::any_of(board.left_out.begin(), board.left_out.end(),
                                    [](const LeaderboardLeftOut& left) { return left.reason == "not timed on a GPU"; });
    out += fmt::format(
        "<section id=\"nobody\">\n<h2>No submission qualifies yet</h2>\n<p>{}{}</p>\n</section>\n",
        board.boards.empty()
            ? "This assignment times no step, so there is nothing to rank."
            : "None of the class's graded submissions has a kernel time that counts: the table below says why "
              "each was left off.",
        on_cpu && !board.boards.empty()
            ? " Kernel times come from a GPU: the CPU backend grades correctness and times nothing."
            : "");
  }
  if (board.unnamed_reason.empty() && anyone)
    for (const LeaderboardBoard& b : board.boards) render_board(out, b);
  render_left_out(out, board);
  return html_document(board.assignment + " — speed leaderboard", out);
}

}  // namespace cugrade
