#include "similarity/similarity_report.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {

ClassSimilarity sample() {
  ClassSimilarity s;
  s.tool = "sim_c++ (Build Aug  7 2019, 23:48:57)";
  s.min_run = 24;
  s.students = {{"alice", "line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11\nline12\n",
                 {{"matmul.cu", 1}}},
                {"=bob <b>", "x1\nx2\nx3\n", {{"a.cu", 1}, {"b.cu", 3}}},
                {"carol", "c\n", {{"matmul.cu", 1}}}};
  s.base = {{{1, 1}, {3, 3}}, {}, {}};
  s.tokens = {120, 60, 10};
  SimilarPair p;
  p.a = 0;
  p.b = 1;
  p.a_percent = 40;
  p.b_percent = 95;
  p.runs = {{"own/00000.cu", {2, 3}, "own/00001.cu", {1, 2}, 50}, {"own/00000.cu", {12, 12}, "own/00001.cu", {3, 3}, 25}};
  p.run_tokens = 75;
  SimilarPair q;
  q.a = 0;
  q.b = 2;
  q.a_percent = 3;
  q.b_percent = 20;
  q.run_tokens = 24;
  q.runs = {{"own/00000.cu", {5, 5}, "own/00002.cu", {1, 1}, 24}};
  s.pairs = {p, q};
  return s;
}

}  // namespace

TEST_CASE("similarity::similarity_csv") {
  const std::string csv = similarity_csv(sample());
  CHECK(csv ==
        "rank,student_a,student_b,percent,a_in_b_percent,b_in_a_percent,run_tokens,runs,a_tokens,b_tokens\n"
        "1,alice,'=bob <b>,95,40,95,75,2,120,60\n"
        "2,alice,carol,20,3,20,24,1,120,10\n");
  ClassSimilarity none = sample();
  none.pairs.clear();
  CHECK(similarity_csv(none).find('\n') == similarity_csv(none).size() - 1);
}

TEST_CASE("similarity::render_similarity_html") {
  SimilarityPageOptions options;
  options.assignment = "matmul";
  options.side_by_side = 1;
  options.left_out = {"dave: no .cu file"};
  const std::string html = render_similarity_html(sample(), options);
  CHECK(html.find("<title>matmul — code similarity</title>") != std::string::npos);
  CHECK(html.find("never a score") != std::string::npos);
  CHECK(html.find("&lt;b&gt;") != std::string::npos);  // ids escaped
  CHECK(html.find("<b>\"") == std::string::npos);
  CHECK(html.find("id=\"pair-1\"") != std::string::npos);  // the first pair side by side, linked from the table
  CHECK(html.find("href=\"#pair-1\"") != std::string::npos);
  CHECK(html.find("id=\"pair-2\"") == std::string::npos);  // only one asked for
  // Run 1 in its colour on both sides, run 2 in the next; the template's line greyed.
  CHECK(html.find("<div class=\"r0\"><span class=\"ln\"><b>1</b>2</span>line2</div>") != std::string::npos);
  CHECK(html.find("<div class=\"r0\"><span class=\"ln\"><b>1</b>1</span>x1</div>") != std::string::npos);
  CHECK(html.find("<div class=\"r1\"><span class=\"ln\"><b>2</b>12</span>line12</div>") != std::string::npos);
  CHECK(html.find("<div class=\"base\"><span class=\"ln\">1</span>line1</div>") != std::string::npos);
  // A template line inside a run was not compared: greyed, not in the run's colour.
  CHECK(html.find("<div class=\"base\"><span class=\"ln\">3</span>line3</div>") != std::string::npos);
  // Lines 7 to 8 are more than three lines from a run: folded.
  CHECK(html.find("⋯ 2 lines not in a run ⋯") != std::string::npos);
  CHECK(html.find("<div class=\"file\">b.cu</div>") != std::string::npos);  // where bob's second file starts
  CHECK(html.find("dave: no .cu file") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
}
