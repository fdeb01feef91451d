#include "batch/progress.hpp"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "batch/gradebook.hpp"
#include "core/printable.hpp"

namespace cugrade {

namespace {

/// "6:38", "1:02:03".
std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

double seconds_spent(const StudentRecord& record) {
  return record.unpack_seconds + record.seconds.build + record.seconds.inputs + record.seconds.run +
         record.seconds.timing + record.seconds.diagnosis;
}

}  // namespace

std::string progress_bar_line(const ProgressState& state, std::size_t bar_width) {
  const double fraction = state.total ? static_cast<double>(state.done) / static_cast<double>(state.total) : 1.0;
  const auto filled = static_cast<std::size_t>(std::floor(fraction * static_cast<double>(bar_width)));
  const std::size_t digits = std::to_string(state.total).size();
  std::string line = fmt::format("[{}{}] {:>{}}/{}", std::string(filled, '#'), std::string(bar_width - filled, '-'),
                                 state.done, digits, state.total);
  // Rate and time left before the counts: on a narrow terminal the line is cut at its end.
  if (state.done > 0 && state.elapsed_s > 0) {
    const double per_minute = 60.0 * static_cast<double>(state.done) / state.elapsed_s;
    const double left = static_cast<double>(state.total - state.done) * state.elapsed_s / static_cast<double>(state.done);
    line += fmt::format("  {:.1f}/min  {} left", per_minute, clock_text(left));
  }
  std::string counts;
  for (const auto& [outcome, count] : state.outcomes)
    if (count) counts += fmt::format("{}{} {}", counts.empty() ? "" : " · ", to_string(outcome), count);
  if (!counts.empty()) line += "  " + counts;
  return line;
}

std::string fit_to_width(const std::string& line, std::size_t columns) {
  if (columns == 0) return line;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    // A byte 10xxxxxx continues a UTF-8 character ("·"): it takes no column of its own.
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
    if (++shown == columns) return line.substr(0, i);  // the last column stays free: no wrap
  }
  return line;
}

std::string progress_plain_line(const ProgressState& state, const StudentRecord& record) {
  const GradeReport& report = record.report;
  const std::size_t digits = std::to_string(state.total).size();
  std::string line = fmt::format("[{:>{}}/{}] {}: {}", state.done, digits, state.total, printable(record.student),
                                 to_string(report.outcome));
  if (report.outcome != Outcome::harness_error)
    line += fmt::format(", {}/{} points", format_points(report.score), format_points(report.max_score));
  line += fmt::format(" ({:.1f} s)", seconds_spent(record));
  if (report.outcome == Outcome::harness_error && !report.notes.empty()) line += ": " + terminal_text(report.notes.back());
  else if (!report.gradable && !report.build.message.empty())
    line += ": " + report.build.message.substr(0, report.build.message.find('\n'));
  return line;
}

BatchProgress::BatchProgress(std::ostream& out, ProgressStyle style, std::function<double()> clock,
                             std::size_t columns)
    : out_(out), style_(style), clock_(std::move(clock)), columns_(columns) {
  if (!clock_) {
    const auto origin = std::chrono::steady_clock::now();
    clock_ = [origin] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin).count(); };
  }
  started_ = clock_();
}

void BatchProgress::planned(std::size_t students, std::size_t to_grade) {
  started_ = clock_();
  state_ = ProgressState{to_grade, 0, {}, 0.0};
  if (style_ == ProgressStyle::none) return;
  const std::size_t kept = students - to_grade;
  log(fmt::format("{} submission{}: grading {}{}", students, students == 1 ? "" : "s", to_grade,
                  kept ? fmt::format(", {} already graded and unchanged", kept) : std::string()));
}

void BatchProgress::finished(const StudentRecord& record) {
  ++state_.done;
  ++state_.outcomes[record.report.outcome];
  state_.elapsed_s = clock_() - started_;
  if (style_ == ProgressStyle::lines) out_ << "cugrade: " << progress_plain_line(state_, record) << "\n" << std::flush;
  if (style_ == ProgressStyle::bar) {
    // A harness error deserves a line of its own, which stays in the scrollback.
    if (record.report.outcome == Outcome::harness_error) log(progress_plain_line(state_, record));
    redraw();
  }
}

void BatchProgress::log(const std::string& line) {
  if (style_ == ProgressStyle::none) return;
  if (bar_shown_) out_ << "\r\033[K";  // the line above the bar replaces the bar, then it is redrawn
  out_ << "cugrade: " << line << "\n";
  bar_shown_ = false;
  if (style_ == ProgressStyle::bar && state_.total) redraw();
  out_ << std::flush;
}

void BatchProgress::redraw() {
  if (style_ != ProgressStyle::bar) return;
  state_.elapsed_s = clock_() - started_;
  out_ << "\r\033[K" << fit_to_width(progress_bar_line(state_), columns_) << std::flush;
  bar_shown_ = true;
}

void BatchProgress::close() {
  if (bar_shown_) out_ << "\n" << std::flush;
  bar_shown_ = false;
}

}  // namespace cugrade
