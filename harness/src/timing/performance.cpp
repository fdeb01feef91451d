#include "timing/performance.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "timing/roofline.hpp"

namespace cugrade {
namespace {

// A time this far under the floor cannot be measurement error: the floor's ceilings are measured
// rates, and a well-tuned kernel may edge past them by a few percent, not by ten.
constexpr double kFloorSlack = 0.9;
// Beyond a 2 % relative standard error the ratio may move enough between runs to change points.
constexpr double kNoisyRse = 0.02;

double prefix_scale(char c) {
  switch (c) {
    case 'k': return 1e3;
    case 'M': return 1e6;
    case 'G': return 1e9;
    case 'T': return 1e12;
    case 'P': return 1e15;
    default: return 0.0;
  }
}

/// Three significant digits, but never an exponent for the magnitudes reports show ("2774").
std::string number(double value) {
  return value >= 100.0 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

std::string ms(double value) { return number(value) + " ms"; }

}  // namespace

double work_quantity(const Work& work, RateUnit::Counts counts) {
  switch (counts) {
    case RateUnit::Counts::bytes: return work.bytes;
    case RateUnit::Counts::flops: return work.flops;
    case RateUnit::Counts::items: return work.items;
  }
  return 0.0;
}

double work_rate(const Work& work, const RateUnit& unit, double median_ms) {
  if (median_ms <= 0.0) return 0.0;
  return work_quantity(work, unit.counts) / unit.scale / (median_ms * 1e-3);
}

std::string rate_unit_for(const Work& work) {
  return !work.rate_unit.empty() ? work.rate_unit : work.flops > 0.0 ? "TFLOP/s" : "GB/s";
}

RateUnit parse_rate_unit(const std::string& unit) {
  std::string body = unit;
  if (body.size() >= 2 && body.ends_with("/s")) body.resize(body.size() - 2);
  RateUnit parsed;
  // "kernels/s" must not read as kilo-"ernels": a prefix counts only before B, FLOP or a space.
  if (body.size() >= 2 && prefix_scale(body[0]) > 0.0) {
    const std::string rest = body.substr(1);
    if (rest == "B" || rest == "FLOP" || rest[0] == ' ') {
      parsed.scale = prefix_scale(body[0]);
      body = rest;
    }
  }
  if (body == "B") parsed.counts = RateUnit::Counts::bytes;
  else if (body == "FLOP") parsed.counts = RateUnit::Counts::flops;
  return parsed;
}

void assess_performance(PerformanceResult& result, const Work& work, const std::optional<Ceilings>& ceilings) {
  if (!result.student) return;
  const TimingStats& student = *result.student;
  result.rate_unit = rate_unit_for(work);
  const RateUnit unit = parse_rate_unit(result.rate_unit);
  result.student_rate = work_rate(work, unit, student.median_ms);
  std::vector<std::string> sentences;

  if (result.reference_time && student.median_ms > 0.0) {
    result.ratio = result.reference_time->median_ms / student.median_ms;
    result.reference_rate = work_rate(work, unit, result.reference_time->median_ms);
    sentences.push_back(fmt::format("{} against {} for the reference: {:.2f}× its speed.",
                                    ms(student.median_ms), ms(result.reference_time->median_ms),
                                    result.ratio));
  } else {
    sentences.push_back(fmt::format("{} (no reference timing to compare with).", ms(student.median_ms)));
  }

  result.percent_of_ceiling.reset();
  if (ceilings && student.median_ms > 0.0) {
    const double seconds = student.median_ms * 1e-3;
    if (unit.counts == RateUnit::Counts::bytes && ceilings->copy_gbps > 0.0) {
      result.percent_of_ceiling = work.bytes / 1e9 / seconds / ceilings->copy_gbps * 100.0;
      sentences.push_back(fmt::format("{} {} is {:.0f} % of this GPU's copy bandwidth.",
                                      number(result.student_rate), result.rate_unit, *result.percent_of_ceiling));
    } else if (unit.counts == RateUnit::Counts::flops && ceilings->sgemm_tflops > 0.0) {
      result.percent_of_ceiling = work.flops / 1e12 / seconds / ceilings->sgemm_tflops * 100.0;
      sentences.push_back(fmt::format("{} {} is {:.0f} % of this GPU's cuBLAS SGEMM rate.",
                                      number(result.student_rate), result.rate_unit, *result.percent_of_ceiling));
    }
  }

  if (!result.percent_of_ceiling && result.student_rate > 0.0)
    sentences.push_back(fmt::format("{} {}.", number(result.student_rate), result.rate_unit));

  auto flag = [&result](const char* name) {
    if (std::find(result.flags.begin(), result.flags.end(), name) == result.flags.end())
      result.flags.emplace_back(name);
  };
  if (student.wall_clock_samples > 0) {
    flag("timer_escaped");
    sentences.push_back(fmt::format(
        "{} of {} samples took the host wall clock's time, which was far longer than the CUDA "
        "events: GPU work ran outside the timed call (a kernel on another stream?).",
        student.wall_clock_samples, student.samples));
  }
  const double floor_ms = roofline_floor_ms(work, ceilings);
  if (floor_ms > 0.0 && student.median_ms < kFloorSlack * floor_ms) {
    flag("below_roofline_floor");
    result.points = 0.0;
    sentences.push_back(fmt::format(
        "{} is physically impossible: moving and computing this much takes at least {} on this "
        "GPU, so this target earns nothing (is work done outside the timed call, or reused from "
        "an earlier one?).", ms(student.median_ms), ms(floor_ms)));
  }
  const double worst_rse = std::max(student.rse, result.reference_time ? result.reference_time->rse : 0.0);
  if (worst_rse > kNoisyRse) {
    flag("noisy");
    sentences.push_back(fmt::format("The timings were noisy (relative standard error {:.1f} %): "
                                    "the ratio may differ between runs.", worst_rse * 100.0));
  }
  result.message = fmt::format("{}", fmt::join(sentences, " "));
}

}  // namespace cugrade
