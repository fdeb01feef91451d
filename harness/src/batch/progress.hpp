#pragma once
// What a TA watches while a class is graded: on a terminal, one line redrawn in place (a bar,
// the counts per outcome, the rate and the time left); in a log or CI, one plain line per
// finished submission, which is what a log reader wants.
#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include "batch/student_record.hpp"
#include "core/outcome.hpp"

namespace cugrade {

/// How progress is shown.
enum class ProgressStyle { bar, lines, none };

/// Where the batch stands, as the progress line shows it.
struct ProgressState {
  std::size_t total = 0;       ///< submissions graded in this run, in all
  std::size_t done = 0;        ///< of which finished
  std::map<Outcome, std::size_t> outcomes;  ///< of the finished ones
  double elapsed_s = 0.0;      ///< since grading began
};

/// "[#########---------]  57/120  9.5/min  6:38 left  passed 40 · wrong_answer 12 · compile_error 5":
/// rate and time left appear once something has finished.
std::string progress_bar_line(const ProgressState& state, std::size_t bar_width = 24);

/// `line` cut to fit `columns` terminal columns, leaving the last free (0: as it is), so that a
/// redrawn line never wraps.
std::string fit_to_width(const std::string& line, std::size_t columns);

/// "[ 57/120] alice: passed, 20/20 points (3.1 s)" for a finished submission; a failure adds
/// its note ("compile_error, 0/20 points: the build failed ...").
std::string progress_plain_line(const ProgressState& state, const StudentRecord& record);

/// Shows a batch's progress on `out` in `style`; not thread-safe (the batch serializes calls).
class BatchProgress {
 public:
  /// `clock` returns seconds since any fixed start (tests pass a fake one); `columns` is the
  /// terminal's width for the bar (0: unknown, nothing is cut).
  BatchProgress(std::ostream& out, ProgressStyle style, std::function<double()> clock = {}, std::size_t columns = 0);

  /// The plan: `to_grade` of `students` are graded now (the rest are up to date).
  void planned(std::size_t students, std::size_t to_grade);
  /// A submission finished.
  void finished(const StudentRecord& record);
  /// A line for the log (printed above the bar on a terminal).
  void log(const std::string& line);
  /// Ends the bar's line, so what follows starts on its own.
  void close();

 private:
  void redraw();
  std::ostream& out_;
  ProgressStyle style_;
  std::function<double()> clock_;
  double started_ = 0.0;
  std::size_t columns_ = 0;
  ProgressState state_;
  bool bar_shown_ = false;
};

}  // namespace cugrade
