#include "report/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/markup.hpp"

namespace cugrade {
namespace {

constexpr double kWidth = 960.0;

std::string svg_open(double width, double height, std::string_view label) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {:.0f} {:.0f}\" "
                     "width=\"{:.0f}\" height=\"{:.0f}\" role=\"img\" aria-label=\"{}\">"
                     "<title>{}</title>\n",
                     width, height, width, height, escape_markup(label), escape_markup(label));
}

std::string text(double x, double y, std::string_view content, std::string_view attributes = "") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}{}>{}</text>\n", x, y,
                     attributes.empty() ? "" : " ", attributes, escape_markup(content));
}

std::string line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  return fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"{}\"/>\n",
                     x1, y1, x2, y2, css_class);
}

std::string rect(double x, double y, double w, double h, std::string_view css_class,
                 std::string_view tooltip = "") {
  const std::string body = fmt::format("x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                                       "class=\"{}\"", x, y, std::max(w, 0.0), std::max(h, 0.0),
                                       css_class);
  if (tooltip.empty()) return fmt::format("<rect {}/>\n", body);
  return fmt::format("<rect {}><title>{}</title></rect>\n", body, escape_markup(tooltip));
}

/// The q-quantile of sorted values, interpolated linearly.
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.size() == 1) return sorted.front();
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - static_cast<double>(below));
}

/// Gridlines at a round step (1, 2, 5, 10, 20, 50, ...): the smallest giving at most 5 of them.
std::size_t grid_step(std::size_t peak) {
  for (std::size_t magnitude = 1;; magnitude *= 10)
    for (std::size_t m : {1, 2, 5})
      if (peak / (m * magnitude) <= 5) return m * magnitude;
}

/// "1×", "0.5×", "1e+03×": a tick label of the ratio axis.
std::string ratio_label(double ratio) { return fmt::format("{:g}×", ratio); }

}  // namespace

std::string svg_timing_chart(const std::vector<TimingBarGroup>& groups) {
  // Each group gets its own scale: steps differ by orders of magnitude (a naive kernel and a
  // tiled one), and what a student needs to see is their bar against the reference's.
  constexpr double kLabelWidth = 90.0, kTextRoom = 150.0, kBar = 16.0, kGroup = 82.0;
  const double bar_left = kLabelWidth, bar_room = kWidth - kLabelWidth - kTextRoom;
  const double height = std::max(1.0, kGroup * static_cast<double>(groups.size()) + 8.0);
  std::string out = svg_open(kWidth, height, "your times against the reference's, per timed step");
  double y = 4.0;
  for (const TimingBarGroup& g : groups) {
    double scale_max = std::max(g.student.median_ms, g.student.q3_ms);
    if (g.reference) scale_max = std::max({scale_max, g.reference->median_ms, g.reference->q3_ms});
    if (!(scale_max > 0.0)) scale_max = 1.0;
    const auto x_of = [&](double ms) { return bar_left + bar_room * std::clamp(ms / scale_max, 0.0, 1.0); };
    out += text(0, y + 14, g.label, "font-weight=\"600\"");
    if (!g.detail.empty()) out += text(kWidth - 4, y + 14, g.detail, "text-anchor=\"end\" class=\"muted\"");
    const auto bar = [&](double top, const TimingStats& t, std::string_view who, std::string_view css,
                         const std::string& label) {
      out += text(0, top + 12.5, who, "class=\"muted\"");
      // A bar is at least 2 px wide, so a time far below the other one still shows.
      out += rect(bar_left, top, std::max(2.0, x_of(t.median_ms) - bar_left), kBar, css,
                  fmt::format("{}: {} ({} samples)", who, label, t.samples));
      if (t.q3_ms > t.q1_ms) {
        const double mid = top + kBar / 2;
        out += line(x_of(t.q1_ms), mid, x_of(t.q3_ms), mid, "whisker");
        out += line(x_of(t.q1_ms), mid - 4, x_of(t.q1_ms), mid + 4, "whisker");
        out += line(x_of(t.q3_ms), mid - 4, x_of(t.q3_ms), mid + 4, "whisker");
      }
      out += text(std::max(x_of(t.median_ms), x_of(t.q3_ms)) + 6, top + 12.5, label);
    };
    bar(y + 24, g.student, "you", "you", g.student_text);
    if (g.reference) bar(y + 46, *g.reference, "reference", "ref", g.reference_text);
    else out += text(bar_left, y + 58.5, "reference not timed", "class=\"muted\"");
    out += line(bar_left, y + 20, bar_left, y + 66, "axis");
    y += kGroup;
  }
  return out + "</svg>\n";
}

std::string svg_bar_chart(const std::vector<ChartBar>& bars, std::string_view caption) {
  constexpr double kHeight = 250.0, kLeft = 36.0, kTop = 20.0, kBottom = 200.0;
  const double width = std::max(300.0, 48.0 * static_cast<double>(bars.size()) + kLeft + 8.0);
  std::size_t peak = 1;
  for (const ChartBar& b : bars) peak = std::max(peak, b.count);
  const std::size_t step = grid_step(peak);
  std::string out = svg_open(width, kHeight, caption);
  const double room = kBottom - kTop;
  const auto y_of = [&](double count) { return kBottom - room * count / static_cast<double>(peak); };
  for (std::size_t tick = 0; tick <= peak; tick += step) {
    out += line(kLeft, y_of(static_cast<double>(tick)), width - 4, y_of(static_cast<double>(tick)), "grid");
    out += text(kLeft - 6, y_of(static_cast<double>(tick)) + 4, std::to_string(tick),
                "text-anchor=\"end\" class=\"muted\"");
  }
  const double slot = (width - kLeft - 8.0) / static_cast<double>(std::max<std::size_t>(bars.size(), 1));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const ChartBar& b = bars[i];
    const double x = kLeft + slot * static_cast<double>(i) + slot * 0.15;
    const double top = y_of(static_cast<double>(b.count));
    out += rect(x, top, slot * 0.7, kBottom - top, b.css_class,
                fmt::format("{}: {}", b.label, b.count));
    if (b.count > 0) out += text(x + slot * 0.35, top - 4, std::to_string(b.count), "text-anchor=\"middle\"");
    out += text(x + slot * 0.35, kBottom + 16, b.label, "text-anchor=\"middle\"");
  }
  out += line(kLeft, kBottom, width - 4, kBottom, "axis");
  out += text(kLeft + (width - kLeft) / 2, kHeight - 8, caption, "text-anchor=\"middle\" class=\"muted\"");
  return out + "</svg>\n";
}

std::string svg_ratio_strip(const std::vector<double>& ratios, std::string_view caption) {
  std::vector<double> values;
  for (double r : ratios)
    if (std::isfinite(r) && r > 0.0) values.push_back(r);
  constexpr double kHeight = 130.0, kLeft = 20.0, kRight = 20.0, kTop = 10.0, kAxis = 88.0;
  std::string out = svg_open(kWidth, kHeight, caption);
  if (values.empty()) {
    out += text(kWidth / 2, 50, "no timed submissions", "text-anchor=\"middle\" class=\"muted\"");
    return out + "</svg>\n";
  }
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  // Log scale: a kernel 4× slower than the reference is as far from 1× as one 4× faster. The
  // axis always shows 0.5× to 2× so that a class bunched at 1× still reads as such, and ends
  // past a power of 2 on each side so that every dot has a labelled tick beyond it.
  const double lo = std::floor(std::log2(std::min(sorted.front(), 0.5))) - 0.25;
  const double hi = std::ceil(std::log2(std::max(sorted.back(), 2.0))) + 0.25;
  const auto x_of = [&](double r) {
    return kLeft + (kWidth - kLeft - kRight) * (std::log2(r) - lo) / (hi - lo);
  };
  // Ticks at powers of 2, or of 10 when the data spans too many powers of 2 to label each.
  const double base = hi - lo > 12.0 ? 10.0 : 2.0;
  const double first = std::ceil(lo / std::log2(base)), last = std::floor(hi / std::log2(base));
  for (double k = first; k <= last; k += 1.0) {
    const double tick = std::pow(base, k);
    out += line(x_of(tick), kTop, x_of(tick), kAxis, "grid");
    out += text(x_of(tick), kAxis + 16, ratio_label(tick), "text-anchor=\"middle\" class=\"muted\"");
  }
  const double q1 = quantile(sorted, 0.25), median = quantile(sorted, 0.5), q3 = quantile(sorted, 0.75);
  out += rect(x_of(q1), kTop + 6, std::max(1.0, x_of(q3) - x_of(q1)), kAxis - kTop - 12, "band",
              fmt::format("middle half: {:.3g}× to {:.3g}×", q1, q3));
  out += line(x_of(1.0), kTop, x_of(1.0), kAxis, "parity");
  for (std::size_t i = 0; i < values.size(); ++i) {
    // The golden ratio spreads successive dots evenly over the band without randomness.
    const double spread = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" class=\"dot\"/>\n",
                       x_of(values[i]), kTop + 12 + spread * (kAxis - kTop - 24));
  }
  out += line(x_of(median), kTop + 2, x_of(median), kAxis - 2, "median");
  out += line(kLeft, kAxis, kWidth - kRight, kAxis, "axis");
  out += text(kWidth / 2, kHeight - 6, caption, "text-anchor=\"middle\" class=\"muted\"");
  return out + "</svg>\n";
}

}  // namespace cugrade
