#pragma once
// The words and numbers of a bench table, shared by the console and the Markdown rendering, so a
// lecture table reads the same in a terminal and in the docs.
#include <string>
#include <vector>

#include "bench/bench_report.hpp"

namespace cugrade {

/// A time as the lectures print it: 4 significant digits, whole numbers from 1000 ("0.1523 ms",
/// "8.054 ms", "13821 ms").
std::string format_bench_ms(double ms);

/// A rate: 3 significant digits, whole numbers from 100 ("75.1", "3532").
std::string format_bench_rate(double rate);

/// The columns of `table`, in order: Kernel, Step, Median, the rate unit, "% of <ceiling>" (when
/// the table has a ceiling), Speedup, Rate (when the CPU gold was timed), Lecture (when a row
/// has a lecture figure).
std::vector<std::string> bench_headings(const BenchTableResult& table);

/// True for the columns bench_headings() right-aligns (the numbers).
std::vector<bool> bench_numeric_columns(const BenchTableResult& table);

/// The cells of `row` under bench_headings(table); "—" where there is no value, "not timed" as
/// the median of a row that was not timed.
std::vector<std::string> bench_cells(const BenchTableResult& table, const BenchRowResult& row);

/// The lines under a table: each untimed row's reason ("naive: ..."), then the table's notes.
std::vector<std::string> bench_footnotes(const BenchTableResult& table);

/// "cols=4000, rows=4000 · CPU gold on one core: 35.2 ms · lecture figures: lecture 001: GTX 280":
/// what a reader needs to know about a table before its rows.
std::string bench_table_caption(const BenchTableResult& table);

/// The lines above every table: the GPU and driver, the ceilings, how rows were sampled.
std::vector<std::string> bench_preamble(const BenchReport& report);

}  // namespace cugrade
