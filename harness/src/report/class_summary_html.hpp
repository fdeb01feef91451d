#pragma once
// One page for a TA over a whole class (what `cugrade grade` writes beside the gradebook): the
// score histogram, how many submissions ended in each outcome, per timed step the spread of the
// class's speed against the reference, the slowest and fastest submissions, and every student.
#include <span>
#include <optional>
#include <string>
#include <string_view>

#include "report/grade_report.hpp"

namespace cugrade {

/// One student's graded submission as the class summary lists it.
struct ClassSummaryEntry {
  std::string id;           ///< the student (their submission's folder or archive name)
  GradeReport report;
  std::string report_link;  ///< relative URL of their HTML report ("alice/report.html"), or "";
                            ///< anything that looks like a scheme ("x:") is made "./x:"
  std::optional<bool> late = {};  ///< handed in after the deadline; unset when none was given
  std::string late_text = {};     ///< under a late policy, the late cell instead ("late (1 d): −0.8 (10 %) → 7.2")
};

/// What the class summary says about itself.
struct ClassSummaryOptions {
  std::string heading;        ///< "" for "<assignment> — class summary"
  std::string subtitle;       ///< one line under it, e.g. "graded 2026-11-21 on an H100"
  std::size_t extremes = 5;   ///< submissions listed as slowest and as fastest per timed step
  std::string similarity_link = {};  ///< relative URL of the class's similarity page, or "" for none
  std::string leaderboard_link = {};  ///< relative URL of the class's speed leaderboard, or "" for none
};

/// The class summary as one self-contained HTML page (inline CSS and SVG, no script, nothing
/// fetched). Student ids and every text from a report are escaped; hidden cases are never named.
/// Students are listed in the order given; an empty class gives a page that says so.
std::string render_class_summary_html(std::span<const ClassSummaryEntry> students,
                                      const ClassSummaryOptions& options = {});

}  // namespace cugrade
