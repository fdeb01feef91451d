#include "bench/bench_table.hpp"

#include "timing/performance.hpp"

namespace cugrade {
namespace {

/// What a ceiling counts, and its value in that quantity per second.
struct CeilingRate {
  RateUnit::Counts counts = RateUnit::Counts::items;
  double per_second = 0.0;
};

CeilingRate ceiling_rate(const ChosenCeiling& ceiling) {
  if (ceiling.key == "copy" || ceiling.key == "read")
    return {RateUnit::Counts::bytes, ceiling.value * 1e9};
  return {RateUnit::Counts::flops, ceiling.value * 1e12};
}

}  // namespace

ChosenCeiling choose_ceiling(BenchCeiling choice, const std::string& rate_unit,
                             const std::optional<Ceilings>& ceilings) {
  if (choice == BenchCeiling::by_unit) {
    switch (parse_rate_unit(rate_unit).counts) {
      case RateUnit::Counts::bytes: choice = BenchCeiling::copy; break;
      case RateUnit::Counts::flops: choice = BenchCeiling::sgemm; break;
      case RateUnit::Counts::items: choice = BenchCeiling::none; break;
    }
  }
  const Ceilings measured = ceilings.value_or(Ceilings{});
  switch (choice) {
    case BenchCeiling::copy: return {"copy", measured.copy_gbps};
    case BenchCeiling::read: return {"read", measured.read_gbps};
    case BenchCeiling::sgemm: return {"sgemm", measured.sgemm_tflops};
    case BenchCeiling::dgemm: return {"dgemm", measured.dgemm_tflops};
    case BenchCeiling::by_unit:
    case BenchCeiling::none: break;
  }
  return {};
}

BenchTableResult tabulate(const BenchTable& table, const std::vector<RowMeasurement>& measurements,
                          const std::optional<Ceilings>& ceilings,
                          std::optional<double> cpu_gold_ms) {
  BenchTableResult result;
  result.title = table.title;
  result.lecture = table.lecture;
  result.params = table.params;
  result.cpu_gold_ms = cpu_gold_ms;
  result.rate_unit = measurements.empty() ? "GB/s" : rate_unit_for(measurements.front().work);
  const RateUnit unit = parse_rate_unit(result.rate_unit);
  const ChosenCeiling ceiling = choose_ceiling(table.ceiling, result.rate_unit, ceilings);
  result.ceiling = ceiling.key;
  result.ceiling_value = ceiling.value;
  if (!ceiling.key.empty() && ceiling.value <= 0.0)
    result.notes.push_back(
        ceilings ? "no % of " + ceiling_label(ceiling.key) +
                       ": this GPU's calibration has not measured it (run `cugrade calibrate --force`)"
                 : "no % of " + ceiling_label(ceiling.key) +
                       ": this GPU is not calibrated (run `cugrade calibrate`)");
  const CeilingRate per_second = ceiling_rate(ceiling);
  bool counts_nothing = false;

  const RowMeasurement* previous = nullptr;
  for (std::size_t i = 0; i < table.rows.size() && i < measurements.size(); ++i) {
    const BenchRow& row = table.rows[i];
    const RowMeasurement& measured = measurements[i];
    BenchRowResult out;
    out.step = row.step;
    out.label = row.label;
    out.lecture = row.lecture;
    out.outcome = measured.outcome;
    out.message = measured.message;
    const bool timed = measured.outcome == Outcome::passed && measured.time &&
                       measured.time->median_ms > 0.0;
    if (timed) {
      out.time = measured.time;
      const double median_ms = measured.time->median_ms;
      out.rate = work_rate(measured.work, unit, median_ms);
      const double quantity = work_quantity(measured.work, per_second.counts);
      if (per_second.per_second > 0.0 && quantity > 0.0)
        out.percent_of_ceiling = quantity / (median_ms * 1e-3) / per_second.per_second * 100.0;
      counts_nothing = counts_nothing || (per_second.per_second > 0.0 && quantity <= 0.0);
      // The lectures' "speedup" is step over step: against the row above, not the first row.
      if (previous) out.speedup = previous->time->median_ms / median_ms;
      if (cpu_gold_ms && *cpu_gold_ms > 0.0) out.cpu_ratio = *cpu_gold_ms / median_ms;
    } else if (out.outcome == Outcome::passed) {
      out.outcome = Outcome::protocol_error;  // "done" without usable samples
      if (out.message.empty()) out.message = "the runner reported no usable time for this row";
    }
    previous = timed ? &measured : nullptr;
    result.rows.push_back(std::move(out));
  }
  if (counts_nothing)
    result.notes.push_back("no % of " + ceiling_label(ceiling.key) +
                           ": the grader's work model counts nothing that ceiling measures");
  return result;
}

}  // namespace cugrade
