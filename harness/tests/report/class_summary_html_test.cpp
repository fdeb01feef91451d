// Golden file: render_class_summary_html's output for a made-up class is compared with
// harness/tests/data/golden/class_summary.html (CUGRADE_UPDATE_GOLDEN=1 rewrites it).
#include "report/class_summary_html.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_class.hpp"

namespace cugrade {
namespace {

std::size_t count(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("report::render_class_summary_html") {
  const std::vector<ClassSummaryEntry> students = test::sample_class();
  SUBCASE("a class") {
    test::check_golden("class_summary.html",
                       render_class_summary_html(students, {.subtitle = "graded on the CPU backend"}));
  }
  SUBCASE("counts: submissions, outcomes, the histogram's bars") {
    const std::string page = render_class_summary_html(students);
    CHECK(page.find("<div class=\"value\">12</div><div class=\"label\">submissions</div>") != std::string::npos);
    CHECK(page.find("<div class=\"value\">2</div><div class=\"label\">not gradable</div>") != std::string::npos);
    CHECK(page.find("<div class=\"value\">8</div><div class=\"label\">passed every case</div>") != std::string::npos);
    CHECK(page.find("<title>n/g: 2</title>") != std::string::npos);
    CHECK(page.find("passed</td><td class=\"num\">8</td>") != std::string::npos);
    CHECK(page.find("compile_error</td><td class=\"num\">1</td>") != std::string::npos);
  }
  SUBCASE("fastest and slowest per timed step, linked to each student's page") {
    const std::string page = render_class_summary_html(students, {.extremes = 3});
    CHECK(count(page, "<h3>fastest 3</h3>") == 2);
    CHECK(count(page, "<h3>slowest 3</h3>") == 2);
    CHECK(page.find("<a href=\"student8/report.html\">student8</a>") != std::string::npos);
  }
  SUBCASE("ids and report text are escaped; hidden cases are never named") {
    const std::string page = render_class_summary_html(students);
    CHECK(page.find("<b>mallory") == std::string::npos);
    CHECK(page.find("&lt;b&gt;mallory&lt;/b&gt;") != std::string::npos);
    CHECK(page.find("K=77") == std::string::npos);
    CHECK(page.find("<script") == std::string::npos);
  }
  SUBCASE("a link is always relative: a folder name cannot make a script URL") {
    std::vector<ClassSummaryEntry> one{students.front()};
    one[0].report_link = "javascript:alert(1)/report.html";
    const std::string page = render_class_summary_html(one);
    CHECK(page.find("href=\"./javascript:alert(1)/report.html\"") != std::string::npos);
    CHECK(page.find("href=\"javascript:") == std::string::npos);
  }
  SUBCASE("a column per step (cases passed), and a late column only when a deadline was given") {
    const std::string page = render_class_summary_html(students);
    CHECK(page.find("(cases passed)</th>") != std::string::npos);
    CHECK(page.find("<th>late</th>") == std::string::npos);
    std::vector<ClassSummaryEntry> dated = students;
    dated[0].late = true;
    dated[1].late = false;
    const std::string with_deadline = render_class_summary_html(dated);
    CHECK(with_deadline.find("<th>late</th>") != std::string::npos);
    CHECK(with_deadline.find("<td>late</td>") != std::string::npos);
    CHECK(with_deadline.find("<td>on time</td>") != std::string::npos);
    dated[0].late_text = "late (1 d): −0.4 (10 %) → 3.6 <b>";  // under a late policy, escaped
    const std::string with_policy = render_class_summary_html(dated);
    CHECK(with_policy.find("<td>late (1 d): −0.4 (10 %) → 3.6 &lt;b&gt;</td>") != std::string::npos);
    CHECK(with_policy.find("<td>on time</td>") != std::string::npos);
  }
  SUBCASE("nothing timed (the CPU backend): one line, not a panel per timed step") {
    std::vector<ClassSummaryEntry> untimed = students;
    for (auto& s : untimed)
      for (auto& p : s.report.performance) {
        p.outcome = Outcome::not_run;
        p.ratio = 0.0;
      }
    const std::string page = render_class_summary_html(untimed);
    CHECK(page.find("Not timed: performance is graded on a GPU only") != std::string::npos);
    CHECK(count(page, "speed against the reference") == 0);
  }
  SUBCASE("the most common failures: per step, numbers as #, each student once per step, hidden cases unnamed") {
    const std::string page = render_class_summary_html(students);
    CHECK(page.find("<h2>Most common failures</h2>") != std::string::npos);
    CHECK(page.find("numbers as #") != std::string::npos);
    std::vector<ClassSummaryEntry> clean{students.front()};
    CHECK(render_class_summary_html(clean).find("None: every submission built and passed every case.") != std::string::npos);
  }
  SUBCASE("the similarity page linked only when there is one") {
    CHECK(render_class_summary_html(students).find("similarity.html") == std::string::npos);
    const std::string page = render_class_summary_html(students, {.similarity_link = "similarity.html"});
    CHECK(page.find("<a href=\"similarity.html\">Code similarity across the class</a>") != std::string::npos);
    CHECK(page.find("never a score") != std::string::npos);
  }
  SUBCASE("the leaderboard linked only when there is one") {
    CHECK(render_class_summary_html(students).find("leaderboard.html") == std::string::npos);
    const std::string page = render_class_summary_html(students, {.leaderboard_link = "leaderboard.html"});
    CHECK(page.find("<a href=\"leaderboard.html\">Speed leaderboard</a>") != std::string::npos);
  }
  SUBCASE("an empty class says so") {
    const std::string page = render_class_summary_html({});
    CHECK(page.find("No submissions were graded.") != std::string::npos);
  }
}

}  // namespace cugrade
