#include "similarity/base_code.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace cugrade;

TEST_CASE("similarity::base_lines") {
  const std::vector<SimRun> runs{
      {"given/00000.cu", {3, 5}, "base/template.cu", {1, 3}, 30},
      {"base/template.cu", {8, 9}, "given/00001.cu", {20, 21}, 14},  // the base file on either side
      {"given/00000.cu", {10, 12}, "given/00001.cu", {1, 3}, 40},   // two students: not the template's
      {"given/00000.cu", {30, 31}, "base/template.cu", {8, 9}, 12},
  };
  const auto lines = base_lines(runs, {"base/template.cu"});
  REQUIRE(lines.size() == 2);
  CHECK(lines.at("given/00000.cu") == std::vector<LineSpan>{{3, 5}, {30, 31}});
  CHECK(lines.at("given/00001.cu") == std::vector<LineSpan>{{20, 21}});
  CHECK_FALSE(lines.contains("base/template.cu"));
}

TEST_CASE("similarity::blank_lines") {
  const std::string text = "one\ntwo\nthree\nfour\nfive\n";
  CHECK(blank_lines(text, {{2, 3}}) == "one\n\n\nfour\nfive\n");
  CHECK(blank_lines(text, {{1, 1}, {5, 9}}) == "\ntwo\nthree\nfour\n\n");
  CHECK(blank_lines(text, {}) == text);
  CHECK(blank_lines("a\nb", {{2, 2}}) == "a\n");  // no final line break: none added
  // The line count is kept, so sim's positions in the blanked text are the original's.
  const std::string blanked = blank_lines(text, {{1, 4}});
  CHECK(std::count(blanked.begin(), blanked.end(), '\n') == 5);
}

TEST_CASE("similarity::covered_lines") {
  CHECK(covered_lines({}) == 0);
  CHECK(covered_lines({{3, 5}}) == 3);
  CHECK(covered_lines({{3, 5}, {4, 8}, {20, 20}}) == 7);
  CHECK(covered_lines({{10, 12}, {1, 2}, {1, 12}}) == 12);
}
