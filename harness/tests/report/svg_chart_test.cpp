#include "report/svg_chart.hpp"

#include <doctest/doctest.h>

namespace cugrade {

TEST_CASE("report::svg_bar_chart") {
  const std::string svg = svg_bar_chart({{"a", 3, "bar-pass"}, {"<b>", 0, "bar-fail"}}, "caption & more");
  CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(svg.find("<title>a: 3</title>") != std::string::npos);
  CHECK(svg.find("&lt;b&gt;") != std::string::npos);
  CHECK(svg.find("caption &amp; more") != std::string::npos);
  CHECK(svg.ends_with("</svg>\n"));
}

TEST_CASE("report::svg_ratio_strip") {
  SUBCASE("a dot per positive finite ratio; 1× always on the axis") {
    const std::string svg = svg_ratio_strip({0.5, 1.0, 2.0, -1.0, 0.0}, "c");
    std::size_t dots = 0;
    for (std::size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++dots;
    CHECK(dots == 3);
    CHECK(svg.find(">1×</text>") != std::string::npos);
    CHECK(svg.find("class=\"parity\"") != std::string::npos);
  }
  SUBCASE("nothing timed says so") {
    CHECK(svg_ratio_strip({}, "c").find("no timed submissions") != std::string::npos);
  }
  SUBCASE("a wide spread is labelled in powers of ten") {
    const std::string svg = svg_ratio_strip({0.001, 1.0, 30000.0}, "c");
    CHECK(svg.find(">1000×</text>") != std::string::npos);
    CHECK(svg.find(">0.01×</text>") != std::string::npos);
  }
}

TEST_CASE("report::svg_timing_chart") {
  const TimingBarGroup group{.label = "tiled · K=1", .detail = "0.50×",
                             .student = TimingStats{.median_ms = 2.0, .q1_ms = 1.9, .q3_ms = 2.1, .samples = 10},
                             .student_text = "2.000 ms",
                             .reference = TimingStats{.median_ms = 1.0, .samples = 10},
                             .reference_text = "1.000 ms"};
  const std::string svg = svg_timing_chart({group});
  CHECK(svg.find("<title>you: 2.000 ms (10 samples)</title>") != std::string::npos);
  CHECK(svg.find("<title>reference: 1.000 ms (10 samples)</title>") != std::string::npos);
  CHECK(svg.find("class=\"whisker\"") != std::string::npos);  // the student's spread
}

}  // namespace cugrade
