#pragma once
// The canonical record of a `cugrade bench` run: every figure of every table, with the GPU,
// driver, ceilings and sampling settings it was measured with. Absent values are null.
#include <nlohmann/json.hpp>

#include "bench/bench_report.hpp"

namespace cugrade {

/// The report as JSON: {cugrade_version, started_at, environment, ceilings, settings,
/// assignments: [{id, title, problem, tables: [{title, lecture, params, rate_unit, ceiling,
/// ceiling_value, cpu_gold_ms, notes, rows: [{step, label, lecture, outcome, message, median_ms,
/// q1_ms, q3_ms, min_ms, max_ms, rse, samples, rate, percent_of_ceiling, speedup,
/// cpu_ratio}]}]}]}.
nlohmann::json bench_to_json(const BenchReport& report);

}  // namespace cugrade
