// Writes the sample HTML reports the browser tests render: a student's page, a compile error's
// page, an empty template's page (every case failing alike), a class summary and the class's
// speed leaderboard, from the same made-up reports as the golden tests.
#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <iostream>

#include "report/class_summary_html.hpp"
#include "report/html_report.hpp"
#include "report/leaderboard_page.hpp"
#include "report/sample_class.hpp"
#include "report/sample_report.hpp"

namespace {

/// The made-up class's leaderboard, its students named by their ids (as --leaderboard-names does):
/// each board's times ranked, the others counted by why they were left off.
cugrade::Leaderboard sample_leaderboard() {
  using namespace cugrade;
  const std::vector<ClassSummaryEntry> students = test::sample_class();
  Leaderboard board{.assignment = "matmul", .title = students.front().report.title, .students = students.size(),
                    .real_names = true};
  std::map<std::string, std::size_t> left_out;
  for (const ClassSummaryEntry& s : students) {
    if (auto why = leaderboard_exclusion(s.report)) ++left_out[*why];
    for (LeaderboardTime time : leaderboard_times(s.report)) {
      // The made-up class varies its times only: its rates follow them here.
      for (const PerformanceResult& p : s.report.performance)
        if (p.step == time.step) time.rate = p.reference_rate * time.ratio;
      auto at = std::find_if(board.boards.begin(), board.boards.end(),
                             [&](const LeaderboardBoard& b) { return b.step == time.step; });
      if (at == board.boards.end())
        at = board.boards.insert(board.boards.end(), {.name = time.step, .step = time.step, .size = time.size, .rows = {}});
      at->rows.push_back({.rank = 0, .name = s.id, .time = time});
    }
  }
  for (LeaderboardBoard& b : board.boards) {
    std::sort(b.rows.begin(), b.rows.end(),
              [](const LeaderboardRow& x, const LeaderboardRow& y) { return x.time.median_ms < y.time.median_ms; });
    for (std::size_t i = 0; i < b.rows.size(); ++i) b.rows[i].rank = i + 1;
  }
  for (const auto& [why, count] : left_out) board.left_out.push_back({why, count});
  return board;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cugrade_report_samples OUT_DIR\n";
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const std::string& html) {
    std::ofstream(dir / name, std::ios::binary) << html;
  };
  write("student.html", cugrade::render_html(cugrade::test::sample_report()));
  write("compile_error.html", cugrade::render_html(cugrade::test::compile_error_report()));
  write("empty_template.html", cugrade::render_html(cugrade::test::empty_template_report()));
  write("class_summary.html",
        cugrade::render_class_summary_html(cugrade::test::sample_class(),
                                           {.subtitle = "a made-up class of twelve"}));
  write("leaderboard.html", cugrade::render_leaderboard_html(sample_leaderboard()));
  return 0;
}
