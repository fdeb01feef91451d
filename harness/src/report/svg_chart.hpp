#pragma once
// The charts of the HTML reports, drawn as inline SVG by hand: no script, no charting library,
// so the page is complete as written and renders anywhere (design.md §3: one self-contained file).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// One timed step as the timing chart draws it: the student's time against the reference's.
struct TimingBarGroup {
  std::string label;                      ///< "tiled · K=4096,M=4096,N=4096"
  std::string detail;                     ///< "0.89× the reference's speed · 4.78/5"
  TimingStats student;
  std::string student_text;               ///< "1.234 ± 0.010 ms"
  std::optional<TimingStats> reference;
  std::string reference_text;
};

/// Two horizontal bars per group (the student's median and the reference's), each group scaled
/// to its slower bar, the interquartile range as a whisker, the time printed beside each bar.
std::string svg_timing_chart(const std::vector<TimingBarGroup>& groups);

/// One bar of a vertical bar chart.
struct ChartBar {
  std::string label;      ///< under the bar ("90–100")
  std::size_t count = 0;  ///< its height; printed above it
  std::string css_class;  ///< "bar-pass", "bar-fail" or "bar-skip"
};

/// Vertical bars with their counts above them and a caption under the axis.
std::string svg_bar_chart(const std::vector<ChartBar>& bars, std::string_view caption);

/// Every ratio as a dot on a logarithmic axis (right is faster than the reference), the
/// interquartile range as a band, the median as a bar and 1× as a dashed line. Non-positive or
/// non-finite ratios are left out. Dots are spread vertically by their index, deterministically.
std::string svg_ratio_strip(const std::vector<double>& ratios, std::string_view caption);

}  // namespace cugrade
