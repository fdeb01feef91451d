#include "bench/bench_format.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace cugrade {
namespace {

constexpr const char* kNone = "—";

bool has_lecture_figures(const BenchTableResult& table) {
  return std::any_of(table.rows.begin(), table.rows.end(),
                     [](const BenchRowResult& row) { return !row.lecture.empty(); });
}

std::string format_percent(double percent) {
  return percent >= 10.0 ? fmt::format("{:.0f} %", percent) : fmt::format("{:.2g} %", percent);
}

std::string format_ratio(double ratio) {
  return ratio >= 100.0 ? fmt::format("{:.0f}×", ratio) : fmt::format("{:.3g}×", ratio);
}

std::string params_text(const Params& params) {
  std::string out;
  for (const auto& [name, value] : params) out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return out;
}

}  // namespace

std::string format_bench_ms(double ms) {
  return ms >= 1000.0 ? fmt::format("{:.0f} ms", ms) : fmt::format("{:.4g} ms", ms);
}

std::string format_bench_rate(double rate) {
  return rate >= 100.0 ? fmt::format("{:.0f}", rate) : fmt::format("{:.3g}", rate);
}

std::vector<std::string> bench_headings(const BenchTableResult& table) {
  std::vector<std::string> headings{"Kernel", "Step", "Median", table.rate_unit};
  if (!table.ceiling.empty()) headings.push_back("% of " + ceiling_label(table.ceiling));
  headings.push_back("Speedup");
  if (table.cpu_gold_ms) headings.push_back("Rate");
  if (has_lecture_figures(table)) headings.push_back("Lecture");
  return headings;
}

std::vector<bool> bench_numeric_columns(const BenchTableResult& table) {
  std::vector<bool> numeric{false, false, true, true};
  if (!table.ceiling.empty()) numeric.push_back(true);
  numeric.push_back(true);
  if (table.cpu_gold_ms) numeric.push_back(true);
  if (has_lecture_figures(table)) numeric.push_back(false);
  return numeric;
}

std::vector<std::string> bench_cells(const BenchTableResult& table, const BenchRowResult& row) {
  const bool timed = row.time.has_value();
  std::vector<std::string> cells{row.label, row.step,
                                 timed ? format_bench_ms(row.time->median_ms) : "not timed",
                                 timed ? format_bench_rate(row.rate) : kNone};
  if (!table.ceiling.empty())
    cells.push_back(row.percent_of_ceiling ? format_percent(*row.percent_of_ceiling) : kNone);
  cells.push_back(row.speedup ? fmt::format("{:.2f}×", *row.speedup) : kNone);
  if (table.cpu_gold_ms) cells.push_back(row.cpu_ratio ? format_ratio(*row.cpu_ratio) : kNone);
  if (has_lecture_figures(table)) cells.push_back(row.lecture.empty() ? kNone : row.lecture);
  return cells;
}

std::vector<std::string> bench_footnotes(const BenchTableResult& table) {
  std::vector<std::string> lines;
  for (const auto& row : table.rows)
    if (!row.time)
      lines.push_back(row.label + " (" + std::string(to_string(row.outcome)) + "): " + row.message);
  lines.insert(lines.end(), table.notes.begin(), table.notes.end());
  return lines;
}

std::string bench_table_caption(const BenchTableResult& table) {
  std::string caption = params_text(table.params);
  if (table.cpu_gold_ms)
    caption += " · CPU gold on one core: " + format_bench_ms(*table.cpu_gold_ms);
  if (!table.lecture.empty()) caption += " · lecture figures: " + table.lecture;
  return caption;
}

std::vector<std::string> bench_preamble(const BenchReport& report) {
  const Environment& env = report.environment;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{} (compute capability {}), driver CUDA {}, nvcc {}, cugrade {}, {}",
                              env.gpu, env.compute_capability, env.driver,
                              env.nvcc.empty() ? "unknown" : env.nvcc, report.cugrade_version,
                              report.started_at));
  if (report.ceilings) {
    const Ceilings& c = *report.ceilings;
    auto measured = [](double value, const char* unit) {
      return value > 0.0 ? format_bench_rate(value) + " " + unit : std::string("not measured");
    };
    lines.push_back(fmt::format(
        "Ceilings (cugrade calibrate, {}): copy {}, read {}, SGEMM {}, DGEMM {}",
        c.measured_at.empty() ? "time unknown" : c.measured_at, measured(c.copy_gbps, "GB/s"),
        measured(c.read_gbps, "GB/s"), measured(c.sgemm_tflops, "TFLOP/s"),
        measured(c.dgemm_tflops, "TFLOP/s")));
  } else {
    lines.push_back("Ceilings: not calibrated (run `cugrade calibrate`): no % column");
  }
  const BenchSettings& s = report.settings;
  lines.push_back(fmt::format(
      "Each row times the reference alone: warm-up, L2 flushed before every sample, at least {} "
      "samples, until the relative standard error is {:.1f} % or {} s of sampling (at most {} "
      "samples). Speedup: over the row above. Rate: the CPU gold's time on one core over the "
      "GPU's.",
      s.min_samples, s.target_rse * 100.0, s.budget_s, s.max_samples));
  return lines;
}

}  // namespace cugrade
