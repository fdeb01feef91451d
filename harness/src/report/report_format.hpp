#pragma once
// Words and numbers shared by the human-readable reports (console, markdown), so a student sees
// the same phrasing in a terminal and in a CI summary.
#include <string>
#include <string_view>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// Points for display: at most 2 decimals, no trailing zeros ("17.5", "4.78", "20").
std::string format_points(double points);

/// "4.78/5": points earned of the maximum.
std::string format_score(double points, double max_points);

/// A value as a student reads it: up to 6 significant digits ("3.25", "0", "1.5e+07", "nan").
std::string format_value(double value);

/// "(row 64, col 0)" for a matrix element, "[7]" for a vector's, "[1, 2, 3]" beyond, the flat
/// index "[2145]" when the coordinates are unknown.
std::string format_coords(const Mismatch& mismatch);

/// "312 of 2145 elements wrong (0 NaN/Inf); first: (row 64, col 0) expected 3.25 got 0, ..."
/// with up to 5 mismatches; for a hidden case's stripped comparison only the counts.
std::string describe_comparison(const Comparison& comparison);

/// "matmul.cu:17:5: error: identifier "tile" is undefined" (the position left out where unknown).
std::string format_diagnostic(const Diagnostic& diagnostic);

/// The compiler's quote of the source under `diagnostic`, as `log` has it: the source line and
/// the caret under it (GCC's "   17 |     tile[0] = 1;" and "      |     ^~~~", EDG's indented
/// line and "^"); empty when the log does not hold the message. At most three lines.
std::vector<std::string> diagnostic_source(const Diagnostic& diagnostic, std::string_view log);

/// A line of the student's source as a message quotes it: "`C[i] = A[i] + B[i];`", trimmed of
/// blanks and cut to `width` bytes ("…" after). Shared by every message that shows a line (a
/// slow step's line from Nsight Compute, a faulting access's line on the CPU backend).
std::string quoted_source_line(std::string_view text, std::size_t width = 60);

/// "PASS", "FAIL", or "SKIP" for a case that was not graded (not run, or a harness fault).
std::string status_word(Outcome outcome);

/// "K=47,M=65,N=33 seed=1" for a visible case, "hidden case" for a hidden one.
std::string case_label(const CaseResult& c);

/// What a failed visible case tells the student, one line each: "crashed: <message>", or for a
/// wrong answer each wrong array's comparison, its pattern and the hint; "not graded (...)" for a
/// harness fault; nothing for a passed or a hidden case (a hidden case shows only its outcome).
std::vector<std::string> case_detail_lines(const CaseResult& c);

/// The cells of one row of the performance table, already formatted.
struct PerformanceRow {
  std::string step;
  std::string size;       ///< "K=4096,M=4096,N=4096"
  std::string time;       ///< "1.234 ± 0.010 ms" (median ± half the interquartile range)
  std::string reference;  ///< the reference's time, same form
  std::string ratio;      ///< "0.89×" (reference time / your time)
  std::string rate;       ///< "111.4 TFLOP/s"
  std::string ceiling;    ///< "22.5 %", or "" when uncalibrated
  std::string points;     ///< "4.78/5", or "not graded"
  std::string flags;      ///< "below_roofline_floor, timer_escaped"
};

/// Formats one performance result; a result that was not timed shows "-" for its numbers.
PerformanceRow performance_row(const PerformanceResult& result);

/// The column headings matching PerformanceRow's fields, in order.
std::vector<std::string> performance_headings();

/// PerformanceRow's cells in heading order.
std::vector<std::string> performance_cells(const PerformanceRow& row);

}  // namespace cugrade
