#include "report/class_summary_html.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html_page.hpp"
#include "report/markup.hpp"
#include "report/report_format.hpp"
#include "report/svg_chart.hpp"

namespace cugrade {
namespace {

std::string e(std::string_view text) { return escape_markup(text); }

constexpr std::size_t kScoreBins = 10;

/// The link as a relative URL: links are made from folder names, which a student may choose,
/// and "javascript:alert(1)/report.html" must not become a script URL. A scheme-like prefix
/// (a ':' before any '/') is made a path by "./".
std::string relative_link(const std::string& link) {
  const std::size_t colon = link.find(':');
  return colon != std::string::npos && colon < link.find('/') ? "./" + link : link;
}

/// A student's name, linked to their page when there is one.
std::string student_cell(const ClassSummaryEntry& s) {
  if (s.report_link.empty()) return e(s.id);
  return fmt::format("<a href=\"{}\">{}</a>", e(relative_link(s.report_link)), e(s.id));
}

double fraction(const GradeReport& r) {
  return r.max_score > 0 ? std::clamp(r.score / r.max_score, 0.0, 1.0) : 0.0;
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string card(std::string_view value, std::string_view label) {
  return fmt::format("<div class=\"card\"><div class=\"value\">{}</div><div class=\"label\">{}</div></div>\n",
                     value, label);
}

void render_header(std::string& out, std::span<const ClassSummaryEntry> students,
                   const ClassSummaryOptions& options) {
  const GradeReport* first = students.empty() ? nullptr : &students.front().report;
  const std::string heading =
      !options.heading.empty() ? options.heading
      : first != nullptr       ? fmt::format("{} — class summary", first->assignment)
                               : std::string("Class summary");
  out += fmt::format("<header class=\"page\">\n<h1>{}{}</h1>\n", e(heading),
                     first != nullptr && !first->title.empty() && options.heading.empty()
                         ? fmt::format(" <span class=\"subtitle\">· {}</span>", e(first->title))
                         : "");
  if (!options.subtitle.empty()) out += fmt::format("<p class=\"muted\">{}</p>\n", e(options.subtitle));
  if (!options.similarity_link.empty())
    out += fmt::format("<p><a href=\"{}\">Code similarity across the class</a> "
                       "<span class=\"muted\">(evidence for a person to read, never a score)</span></p>\n",
                       e(options.similarity_link));
  if (!options.leaderboard_link.empty())
    out += fmt::format("<p><a href=\"{}\">Speed leaderboard</a> <span class=\"muted\">(per timed step, the "
                       "kernel times of sealed GPU runs that passed every case, ranked)</span></p>\n",
                       e(options.leaderboard_link));
  std::vector<double> fractions;
  std::size_t all_passed = 0;
  for (const ClassSummaryEntry& s : students) {
    if (!s.report.gradable) continue;
    fractions.push_back(fraction(s.report));
    all_passed += s.report.outcome == Outcome::passed;
  }
  double mean = 0.0;
  for (double f : fractions) mean += f;
  if (!fractions.empty()) mean /= static_cast<double>(fractions.size());
  const std::string none = "–";
  out += "<div class=\"cards\">\n";
  out += card(std::to_string(students.size()), "submissions");
  out += card(std::to_string(fractions.size()), "gradable (built)");
  out += card(std::to_string(students.size() - fractions.size()), "not gradable");
  out += card(std::to_string(all_passed), "passed every case");
  out += card(fractions.empty() ? none : fmt::format("{:.0f} %", mean * 100.0), "mean score (gradable)");
  out += card(fractions.empty() ? none : fmt::format("{:.0f} %", median_of(fractions) * 100.0),
              "median score (gradable)");
  out += "</div>\n</header>\n";
}

void render_scores(std::string& out, std::span<const ClassSummaryEntry> students) {
  std::vector<ChartBar> bars;
  for (std::size_t i = 0; i < kScoreBins; ++i)
    bars.push_back({fmt::format("{}–{}", i * 10, (i + 1) * 10), 0,
                    i < 5 ? "bar-fail" : (i < 8 ? "bar-skip" : "bar-pass")});
  bars.push_back({"n/g", 0, "ref"});
  for (const ClassSummaryEntry& s : students) {
    if (!s.report.gradable) {
      ++bars.back().count;
      continue;
    }
    // 100 % goes in the last bin with 90–99 %, as in any grade histogram.
    const auto bin = std::min(kScoreBins - 1, static_cast<std::size_t>(fraction(s.report) * kScoreBins));
    ++bars[bin].count;
  }
  out += "<section id=\"scores\">\n<h2>Scores</h2>\n";
  out += svg_bar_chart(bars, "score, % of the maximum (n/g: not gradable)");
  out += "</section>\n";
}

void render_outcomes(std::string& out, std::span<const ClassSummaryEntry> students) {
  std::map<Outcome, std::size_t> counts;
  for (const ClassSummaryEntry& s : students) ++counts[s.report.outcome];
  out += "<section id=\"outcomes\">\n<h2>Outcomes</h2>\n<table><thead><tr><th>outcome</th>"
         "<th class=\"num\">submissions</th><th class=\"num\">share</th></tr></thead><tbody>\n";
  for (const auto& [outcome, count] : counts)
    out += fmt::format("<tr><td>{} {}</td><td class=\"num\">{}</td><td class=\"num\">{:.0f} %</td></tr>\n",
                       html_status_badge(outcome), to_string(outcome), count,
                       100.0 * static_cast<double>(count) / static_cast<double>(students.size()));
  out += "</tbody></table>\n";
  out += "<p class=\"muted\">A submission's outcome is its worst: passed only when every case "
         "passed. not_run and harness_error never cost a student points.</p>\n</section>\n";
}

/// A failure's message as a pattern: its first line, numbers as '#', so that the same mistake
/// at other sizes or values counts once.
std::string failure_pattern(std::string_view message) {
  std::string pattern;
  for (char c : message.substr(0, message.find('\n'))) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (pattern.empty() || pattern.back() != '#') pattern += '#';
    } else {
      pattern += c;
    }
  }
  return pattern.size() > 160 ? pattern.substr(0, 160) + "…" : pattern;
}

/// The failures most students share: per step, the first failing case's outcome and message
/// pattern (a hidden case's outcome only), and the build's; each student counted once per step.
void render_common_failures(std::string& out, std::span<const ClassSummaryEntry> students) {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> counts;
  for (const ClassSummaryEntry& s : students) {
    const GradeReport& r = s.report;
    // The students' mistakes: a harness error is cugrade's, and has its own count above.
    if (r.build.outcome != Outcome::passed && r.build.outcome != Outcome::not_run && r.build.outcome != Outcome::harness_error)
      ++counts[{"build", std::string(to_string(r.build.outcome)), failure_pattern(r.build.message)}];
    std::set<std::string> seen;
    for (const CaseResult& c : r.cases) {
      if (c.outcome == Outcome::passed || c.outcome == Outcome::not_run || c.outcome == Outcome::harness_error ||
          !seen.insert(c.step).second)
        continue;
      const bool hidden = c.visibility == Visibility::hidden;
      ++counts[{c.step, std::string(to_string(c.outcome)), hidden ? std::string("(a hidden case)") : failure_pattern(c.message)}];
    }
  }
  std::vector<std::pair<std::size_t, std::tuple<std::string, std::string, std::string>>> ranked;
  for (const auto& [key, n] : counts) ranked.emplace_back(n, key);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (ranked.size() > 5) ranked.resize(5);
  out += "<section id=\"failures\">\n<h2>Most common failures</h2>\n";
  if (ranked.empty()) {
    out += "<p class=\"muted\">None: every submission built and passed every case.</p>\n</section>\n";
    return;
  }
  out += "<div class=\"scroll\"><table><thead><tr><th>step</th><th>outcome</th><th class=\"num\">students</th>"
         "<th>what the report says (numbers as #)</th></tr></thead><tbody>\n";
  for (const auto& [n, key] : ranked) {
    const auto& [step, outcome, pattern] = key;
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n", e(step), e(outcome), n,
                       e(pattern));
  }
  out += "</tbody></table></div>\n</section>\n";
}

/// One student's result for one timed target.
struct Timed {
  const ClassSummaryEntry* student;
  const PerformanceResult* result;
};

/// Every result of one performance target (a step at one size) across the class.
struct Target {
  std::string step, size;
  std::vector<Timed> timed;
  std::size_t flagged = 0;
  std::size_t untimed = 0;
};

// Flags that say a time cannot be trusted (an impossible time, work escaping the timer, a wrong
// result while timed): such a time would stretch the class's axis and top the fastest list, so
// it is counted apart instead; the student's own report shows it. "noisy" is not among them.
constexpr std::string_view kUntrustedFlags[] = {"below_roofline_floor", "timer_escaped",
                                                "output_mismatch"};

bool untrusted(const PerformanceResult& p) {
  return std::any_of(p.flags.begin(), p.flags.end(), [](const std::string& flag) {
    return std::find(std::begin(kUntrustedFlags), std::end(kUntrustedFlags), flag) !=
           std::end(kUntrustedFlags);
  });
}

std::vector<Target> targets_of(std::span<const ClassSummaryEntry> students) {
  std::vector<Target> targets;
  for (const ClassSummaryEntry& s : students)
    for (const PerformanceResult& p : s.report.performance) {
      const std::string size = params_to_string(p.params);
      auto it = std::find_if(targets.begin(), targets.end(),
                             [&](const Target& t) { return t.step == p.step && t.size == size; });
      if (it == targets.end()) it = targets.insert(targets.end(), Target{p.step, size, {}, 0, 0});
      if (!p.student || p.outcome != Outcome::passed || !(p.ratio > 0.0)) ++it->untimed;
      else if (untrusted(p)) ++it->flagged;
      else it->timed.push_back({&s, &p});
    }
  return targets;
}

void render_ranking(std::string& out, std::string_view caption, const std::vector<Timed>& rows) {
  out += fmt::format("<div class=\"scroll\"><h3>{}</h3>\n<table><thead><tr><th>student</th><th class=\"num\">time</th>"
                     "<th class=\"num\">ratio</th><th class=\"num\">points</th><th>flags</th>"
                     "</tr></thead><tbody>\n", e(caption));
  for (const Timed& t : rows) {
    const PerformanceRow row = performance_row(*t.result);
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                       "<td class=\"num\">{}</td><td>{}</td></tr>\n",
                       student_cell(*t.student), e(row.time), e(row.ratio), e(row.points), e(row.flags));
  }
  out += "</tbody></table></div>\n";
}

void render_performance(std::string& out, std::span<const ClassSummaryEntry> students,
                        std::size_t extremes) {
  std::vector<Target> targets = targets_of(students);
  if (targets.empty()) return;
  // Nothing timed anywhere (the CPU backend, no GPU): one line, not a panel per target.
  if (std::all_of(targets.begin(), targets.end(), [](const Target& t) { return t.timed.empty() && t.flagged == 0; })) {
    out += "<section id=\"performance\">\n<h2>Performance</h2>\n<p class=\"muted\">Not timed: performance is "
           "graded on a GPU only (the CPU backend grades correctness).</p>\n</section>\n";
    return;
  }
  out += "<section id=\"performance\">\n<h2>Performance</h2>\n<p class=\"muted\">Ratio = the "
         "reference's time / the student's, measured in the same run on the same GPU: right of "
         "the dashed 1× line is faster than the reference. The band spans the middle half of the "
         "class, the black bar is the median.</p>\n";
  for (Target& t : targets) {
    std::vector<double> ratios;
    for (const Timed& timed : t.timed) ratios.push_back(timed.result->ratio);
    std::string counts = t.timed.empty() ? "none timed"
                                         : fmt::format("{} timed, median {:.2f}×", t.timed.size(),
                                                       median_of(ratios));
    if (t.flagged > 0)
      counts += fmt::format("; {} flagged as untrustworthy (an impossible time or work escaping "
                            "the timer): left out here, see their reports", t.flagged);
    if (t.untimed > 0)
      counts += fmt::format("; {} not timed (a failed case, the CPU backend, or no GPU)", t.untimed);
    out += fmt::format("<h3>{} · {}</h3>\n<p>{}.</p>\n", e(t.step), e(t.size), e(counts));
    out += svg_ratio_strip(ratios, fmt::format("{}: speed against the reference (log scale)", t.step));
    if (t.timed.empty()) continue;
    std::stable_sort(t.timed.begin(), t.timed.end(), [](const Timed& a, const Timed& b) {
      return a.result->ratio > b.result->ratio;
    });
    if (t.timed.size() <= extremes) {
      render_ranking(out, "every timed submission, fastest first", t.timed);
      continue;
    }
    out += "<div class=\"two\">\n";
    render_ranking(out, fmt::format("fastest {}", extremes),
                   {t.timed.begin(), t.timed.begin() + static_cast<std::ptrdiff_t>(extremes)});
    render_ranking(out, fmt::format("slowest {}", extremes),
                   {t.timed.rbegin(), t.timed.rbegin() + static_cast<std::ptrdiff_t>(extremes)});
    out += "</div>\n";
  }
  out += "</section>\n";
}

/// The steps of the class's reports, in the order their cases come.
std::vector<std::string> steps_of(std::span<const ClassSummaryEntry> students) {
  std::vector<std::string> steps;
  for (const ClassSummaryEntry& s : students)
    for (const CaseResult& c : s.report.cases)
      if (std::find(steps.begin(), steps.end(), c.step) == steps.end()) steps.push_back(c.step);
  return steps;
}

void render_students(std::string& out, std::span<const ClassSummaryEntry> students) {
  const std::vector<std::string> steps = steps_of(students);
  const bool deadline = std::any_of(students.begin(), students.end(), [](const ClassSummaryEntry& s) { return s.late.has_value(); });
  out += "<section id=\"students\">\n<h2>Every submission</h2>\n<div class=\"scroll\"><table><thead><tr><th>student</th>"
         "<th class=\"num\">score</th><th>outcome</th>";
  if (deadline) out += "<th>late</th>";
  for (const std::string& step : steps) out += fmt::format("<th class=\"num\">{} (cases passed)</th>", e(step));
  out += "<th>performance (ratio)</th></tr></thead><tbody>\n";
  for (const ClassSummaryEntry& s : students) {
    const GradeReport& r = s.report;
    std::vector<std::string> ratios;
    for (const PerformanceResult& p : r.performance)
      if (p.student && p.outcome == Outcome::passed && p.ratio > 0.0)
        ratios.push_back(fmt::format("{} {:.2f}×{}", p.step, p.ratio, untrusted(p) ? " (flagged)" : ""));
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td class=\"num\">{}</td><td>{} {}</td>",
                       html_status_class(r.outcome), student_cell(s), format_score(r.score, r.max_score),
                       html_status_badge(r.outcome), to_string(r.outcome));
    if (deadline)
      out += fmt::format("<td>{}</td>", !s.late_text.empty() ? e(s.late_text) : !s.late ? "" : *s.late ? "late" : "on time");
    for (const std::string& step : steps) {
      std::size_t passed = 0, all = 0;
      for (const CaseResult& c : r.cases)
        if (c.step == step) {
          ++all;
          if (c.outcome == Outcome::passed) ++passed;
        }
      out += all ? fmt::format("<td class=\"num\">{}/{}</td>", passed, all) : std::string("<td></td>");
    }
    out += fmt::format("<td>{}</td></tr>\n", e(fmt::format("{}", fmt::join(ratios, ", "))));
  }
  out += "</tbody></table></div>\n</section>\n";
}

}  // namespace

std::string render_class_summary_html(std::span<const ClassSummaryEntry> students,
                                      const ClassSummaryOptions& options) {
  std::string body;
  render_header(body, students, options);
  if (students.empty()) {
    body += "<section><p>No submissions were graded.</p></section>\n";
  } else {
    body += "<div class=\"two\">\n";
    render_scores(body, students);
    render_outcomes(body, students);
    body += "</div>\n";
    render_common_failures(body, students);
    render_performance(body, students, std::max<std::size_t>(options.extremes, 1));
    render_students(body, students);
  }
  const std::string version = students.empty() ? "" : students.front().report.cugrade_version;
  body += fmt::format("<footer>cugrade {}</footer>\n", e(version));
  const std::string title = options.heading.empty() && !students.empty()
                                ? students.front().report.assignment + " — class summary"
                                : (options.heading.empty() ? "Class summary" : options.heading);
  return html_document(title, body);
}

}  // namespace cugrade
