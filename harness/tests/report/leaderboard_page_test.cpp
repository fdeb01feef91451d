#include "report/leaderboard_page.hpp"

#include <doctest/doctest.h>

namespace cugrade {
namespace {

bool has(const std::string& page, const std::string& text) { return page.find(text) != std::string::npos; }

Leaderboard sample_board() {
  Leaderboard board{.assignment = "matmul", .title = "Tiled <matrix> multiplication", .students = 3};
  const LeaderboardTime fast{.step = "tiled", .size = "K=2048,M=2048,N=2048", .median_ms = 1.5, .reference_ms = 1.86,
                             .ratio = 1.24, .rate = 11.45, .rate_unit = "TFLOP/s"};
  LeaderboardTime slow = fast;
  slow.median_ms = 0.75;
  board.boards = {LeaderboardBoard{.name = "tiled", .step = "tiled", .size = fast.size,
                                   .rows = {{1, "anon-0a1b2c3d", slow}, {2, "<b>eve</b>", fast}}},
                  LeaderboardBoard{.name = "coarse", .step = "coarse", .size = fast.size, .rows = {}}};
  board.left_out = {{"not every case passed", 1}};
  return board;
}

TEST_CASE("report::render_leaderboard_html") {
  SUBCASE("each board ranked with its figures, names and titles escaped") {
    const std::string page = render_leaderboard_html(sample_board());
    CHECK(has(page, "<title>matmul — speed leaderboard</title>"));
    CHECK(has(page, "Tiled &lt;matrix&gt; multiplication"));
    CHECK(has(page, "<code>anon-0a1b2c3d</code></td><td class=\"num\">750.0 µs</td><td class=\"num\">1.24×</td>"
                    "<td class=\"num\">11.45 TFLOP/s</td><td class=\"num\">1.860 ms</td>"));
    CHECK(has(page, "&lt;b&gt;eve&lt;/b&gt;"));
    CHECK_FALSE(has(page, "<b>eve</b>"));
    CHECK(page.find("anon-0a1b2c3d") < page.find("&lt;b&gt;eve"));
    CHECK(has(page, "2 of 3 graded submissions on at least one board"));
    CHECK(has(page, "pseudonyms derived from the course secret"));
  }
  SUBCASE("a board nobody qualifies for says so; the reasons others were left off are listed") {
    const std::string page = render_leaderboard_html(sample_board());
    CHECK(has(page, "No submission qualifies for this step yet."));
    CHECK(has(page, "<tr><td>not every case passed</td><td class=\"num\">1</td></tr>"));
  }
  SUBCASE("a class where nobody qualifies gets words, not an empty table") {
    Leaderboard board = sample_board();
    board.boards[0].rows.clear();
    board.left_out = {{"not timed on a GPU", 3}};
    const std::string page = render_leaderboard_html(board);
    CHECK(has(page, "No submission qualifies yet"));
    CHECK(has(page, "<tr><td>not timed on a GPU</td><td class=\"num\">3</td></tr>"));
    CHECK(has(page, "the CPU backend grades correctness and times nothing"));
    CHECK_FALSE(has(page, "<table class=\"leaderboard\""));
  }
  SUBCASE("no way to name anyone: the page says why and lists nobody") {
    Leaderboard board = sample_board();
    board.unnamed_reason = "graded without a course secret";
    const std::string page = render_leaderboard_html(board);
    CHECK(has(page, "Nobody is listed"));
    CHECK(has(page, "graded without a course secret"));
    CHECK_FALSE(has(page, "anon-0a1b2c3d"));
  }
  SUBCASE("real names: the page says it is for the staff") {
    Leaderboard board = sample_board();
    board.real_names = true;
    CHECK(has(render_leaderboard_html(board), "keep this page to the course staff"));
  }
}

}  // namespace
}  // namespace cugrade
