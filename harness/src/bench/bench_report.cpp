#include "bench/bench_report.hpp"

namespace cugrade {

bool BenchReport::has_failures() const {
  for (const auto& assignment : assignments) {
    if (!assignment.problem.empty()) return true;
    for (const auto& table : assignment.tables)
      for (const auto& row : table.rows)
        if (row.outcome != Outcome::passed) return true;
  }
  return false;
}

std::string ceiling_label(const std::string& ceiling) {
  if (ceiling == "copy") return "copy bandwidth";
  if (ceiling == "read") return "read bandwidth";
  if (ceiling == "sgemm") return "cuBLAS SGEMM";
  if (ceiling == "dgemm") return "cuBLAS DGEMM";
  return ceiling;
}

}  // namespace cugrade
