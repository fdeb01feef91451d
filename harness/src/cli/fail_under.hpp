#pragma once
// `cugrade check --fail-under BAR`: the bar a CI job sets (points, or a percentage of the
// maximum), read before any grading so that a typo costs no minutes, and the one line that says
// why the exit code is 4.
#include <string>

#include "core/outcome.hpp"
#include "core/result.hpp"

namespace cugrade {

/// A bar as the user wrote it.
struct FailUnder {
  double value = 0.0;    ///< points, or a percentage
  bool percent = false;  ///< "75%": of the maximum
  std::string text;      ///< as typed, for messages
};

/// Reads a bar: a finite number of points from 0 up ("15", "12.5"), or a percentage from 0 to 100
/// ("75%"); anything else (a word, a negative number, "nan", "150%") is an error saying what it takes.
Result<FailUnder> parse_fail_under(const std::string& text);

/// The points `bar` asks for when the most a submission can have is `max_score`.
double bar_points(const FailUnder& bar, double max_score);

/// Why a report fails `bar`, as one line for the exit code 4 ("below the bar: 30 of 60 points;
/// --fail-under 80% asks for 48"), saying so when the report is not gradable or when the bar is
/// more than this run's maximum; empty when the report meets the bar.
std::string below_bar_message(const FailUnder& bar, double score, double max_score, bool gradable, Outcome outcome);

}  // namespace cugrade
