#pragma once
// A made-up bench run for the rendering tests (console, Markdown, JSON golden files): two
// assignments, one with a table of four rows (one not timed) and a table without a measured
// ceiling or CPU time, one whose reference did not build. The numbers are invented, round and
// checkable by hand; they are no GPU's.
#include "bench/bench_table.hpp"

namespace cugrade::test {

/// Timing statistics with this median (spread ±1 %, 10 samples).
inline TimingStats stats_of(double median_ms) {
  TimingStats t;
  t.median_ms = median_ms;
  t.min_ms = median_ms * 0.98;
  t.max_ms = median_ms * 1.02;
  t.q1_ms = median_ms * 0.99;
  t.q3_ms = median_ms * 1.01;
  t.rse = 0.004;
  t.samples = 10;
  return t;
}

/// A row that was timed at `median_ms`, moving `bytes` per call.
inline RowMeasurement timed_row(double bytes, double median_ms) {
  return RowMeasurement{Work{.bytes = bytes, .rate_unit = "GB/s"}, Outcome::passed, "",
                        stats_of(median_ms)};
}

/// Ceilings of an imaginary GPU: copy 4000 GB/s, read 4400 GB/s, SGEMM 50 TFLOP/s, no DGEMM.
inline Ceilings sample_ceilings() {
  return Ceilings{.copy_gbps = 4000.0, .read_gbps = 4400.0, .sgemm_tflops = 50.0,
                  .dgemm_tflops = 0.0, .gpu = "Imaginary GPU", .driver = "13.0",
                  .measured_at = "2026-01-02T03:04:05Z"};
}

/// The lecture's transpose table at 4000 × 4000: 128 MB moved per call.
inline BenchTable transpose_table() {
  BenchTable table;
  table.title = "4000 × 4000 floats";
  table.lecture = "lecture 001: GeForce GTX 280";
  table.params = {{"cols", 4000}, {"rows", 4000}};
  table.rows = {{"copy", "copy", "112.4 GB/s", {}},
                {"naive", "mtran", "5.3 GB/s", {}},
                {"coalesced", "mtran_coalesced", "75.1 GB/s", {}},
                {"padded", "padded | tile[32][33]", "93.4 GB/s", {}}};
  return table;
}

/// The whole made-up run.
inline BenchReport sample_bench_report() {
  BenchReport report;
  report.cugrade_version = "1.0.0";
  report.started_at = "2026-01-02T03:04:05Z";
  report.environment = Environment{"cuda", "Imaginary GPU", "9.0", "13.0", "13.0", "13.0.88",
                                   "gpu-host", 1980, 2619};
  report.ceilings = sample_ceilings();

  BenchAssignment transpose{"transpose", "Matrix transpose", "", {}};
  const double bytes = 2.0 * 4.0 * 4000.0 * 4000.0;
  const std::vector<RowMeasurement> rows = {
      timed_row(bytes, 0.04), timed_row(bytes, 0.4), timed_row(bytes, 0.1),
      RowMeasurement{Work{.bytes = bytes, .rate_unit = "GB/s"}, Outcome::crashed,
                     "the reference crashed: the program died from SIGSEGV", std::nullopt}};
  transpose.tables.push_back(tabulate(transpose_table(), rows, sample_ceilings(), 64.0));

  BenchTable big;
  big.title = "8192 × 8192 floats";
  big.params = {{"cols", 8192}, {"rows", 8192}};
  big.rate = false;
  big.ceiling = BenchCeiling::dgemm;
  big.rows = {{"naive", "naive", "", {}}, {"padded", "padded", "", {}}};
  const double big_bytes = 2.0 * 4.0 * 8192.0 * 8192.0;
  BenchTableResult big_result = tabulate(big, {timed_row(big_bytes, 1.0), timed_row(big_bytes, 0.15)},
                                         sample_ceilings(), std::nullopt);
  big_result.notes.push_back("no Rate column: this table does not time the CPU gold (rate: false)");
  transpose.tables.push_back(std::move(big_result));
  report.assignments.push_back(std::move(transpose));

  BenchTable sum;
  sum.title = "2^22 ints";
  sum.params = {{"n", 4194304}};
  sum.rows = {{"reduce1", "Kernel 1", "", {}}};
  BenchAssignment reduction{"reduction", "Parallel reduction",
                            "the reference did not build: nvcc failed with exit code 1", {}};
  reduction.tables.push_back(
      tabulate(sum, {RowMeasurement{Work{.bytes = 4.0 * 4194304.0, .rate_unit = "GB/s"},
                                    Outcome::not_run, "not run: the reference did not build",
                                    std::nullopt}},
               sample_ceilings(), std::nullopt));
  report.assignments.push_back(std::move(reduction));
  return report;
}

}  // namespace cugrade::test
