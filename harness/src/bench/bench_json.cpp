#include "bench/bench_json.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json environment_json(const Environment& env) {
  return {{"backend", env.backend},         {"gpu", env.gpu},
          {"compute_capability", env.compute_capability},
          {"driver", env.driver},           {"cuda_runtime", env.cuda_runtime},
          {"nvcc", env.nvcc},               {"host", env.host},
          {"sm_clock_mhz", env.sm_clock_mhz}, {"memory_clock_mhz", env.memory_clock_mhz}};
}

json ceilings_json(const std::optional<Ceilings>& ceilings) {
  if (!ceilings) return nullptr;
  // 0 means "not measured" in the cache (an older calibration); null says so plainly.
  auto measured = [](double value) { return value > 0.0 ? json(value) : json(nullptr); };
  return {{"copy_gbps", measured(ceilings->copy_gbps)},
          {"read_gbps", measured(ceilings->read_gbps)},
          {"sgemm_tflops", measured(ceilings->sgemm_tflops)},
          {"dgemm_tflops", measured(ceilings->dgemm_tflops)},
          {"gpu", ceilings->gpu},
          {"driver", ceilings->driver},
          {"measured_at", ceilings->measured_at}};
}

json row_json(const BenchRowResult& row) {
  json out = {{"step", row.step},       {"label", row.label},
              {"lecture", row.lecture}, {"outcome", to_string(row.outcome)},
              {"message", row.message}};
  const auto& t = row.time;
  out["median_ms"] = t ? json(t->median_ms) : json(nullptr);
  out["q1_ms"] = t ? json(t->q1_ms) : json(nullptr);
  out["q3_ms"] = t ? json(t->q3_ms) : json(nullptr);
  out["min_ms"] = t ? json(t->min_ms) : json(nullptr);
  out["max_ms"] = t ? json(t->max_ms) : json(nullptr);
  out["rse"] = t ? json(t->rse) : json(nullptr);
  out["samples"] = t ? json(t->samples) : json(nullptr);
  out["rate"] = t ? json(row.rate) : json(nullptr);
  out["percent_of_ceiling"] = optional_number(row.percent_of_ceiling);
  out["speedup"] = optional_number(row.speedup);
  out["cpu_ratio"] = optional_number(row.cpu_ratio);
  return out;
}

json table_json(const BenchTableResult& table) {
  json rows = json::array();
  for (const auto& row : table.rows) rows.push_back(row_json(row));
  return {{"title", table.title},
          {"lecture", table.lecture},
          {"params", table.params},
          {"rate_unit", table.rate_unit},
          {"ceiling", table.ceiling.empty() ? json(nullptr) : json(table.ceiling)},
          {"ceiling_value", table.ceiling_value > 0.0 ? json(table.ceiling_value) : json(nullptr)},
          {"cpu_gold_ms", optional_number(table.cpu_gold_ms)},
          {"notes", table.notes},
          {"rows", rows}};
}

}  // namespace

json bench_to_json(const BenchReport& report) {
  json assignments = json::array();
  for (const auto& assignment : report.assignments) {
    json tables = json::array();
    for (const auto& table : assignment.tables) tables.push_back(table_json(table));
    assignments.push_back({{"id", assignment.id},
                           {"title", assignment.title},
                           {"problem", assignment.problem},
                           {"tables", tables}});
  }
  const BenchSettings& s = report.settings;
  return {{"cugrade_version", report.cugrade_version},
          {"started_at", report.started_at},
          {"environment", environment_json(report.environment)},
          {"ceilings", ceilings_json(report.ceilings)},
          {"settings",
           {{"min_samples", s.min_samples},
            {"max_samples", s.max_samples},
            {"target_rse", s.target_rse},
            {"budget_s", s.budget_s},
            {"warmup_s", s.warmup_s}}},
          {"assignments", assignments}};
}

}  // namespace cugrade
