#pragma once
// `--late-policy "grace=15m,per-day=10%,max-days=3"`: what handing in late costs. The arithmetic
// alone (no student, no file): a time after the deadline in, a standing and a penalty out.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cugrade {

/// A course's late policy.
struct LatePolicy {
  std::int64_t grace_seconds = 0;  ///< after the deadline, free of charge
  double percent_per_day = 0.0;    ///< of the raw score, per started day after the grace (0..100)
  /// Past this many started days after the grace the submission is not accepted (final score 0);
  /// none: accepted however late, the penalty stopping at 100 %.
  std::optional<int> max_days;

  /// Field-by-field equality.
  bool operator==(const LatePolicy&) const = default;
};

/// "grace=15m,per-day=10%,max-days=3": comma-separated keys, each at most once, in any order:
/// grace (a whole number with a unit s, m, h or d; default 0), per-day (a percent with its sign,
/// 0 to 100; default 0), max-days (a whole number of days; default: no limit). Anything else (an
/// unknown key, a value without its unit or percent sign, an empty policy) is an error that
/// shows the form.
Result<LatePolicy> parse_late_policy(std::string_view text);

/// The policy in words, for reports: "15 min grace, then 10 % per started day, not accepted after 3 days".
std::string describe_late_policy(const LatePolicy& policy);

/// Where a hand-in stands against its deadline under a policy.
enum class LateStanding {
  on_time,       ///< at or before the deadline
  in_grace,      ///< after the deadline, within the grace: no penalty
  late,          ///< after the grace: the penalty of its started days
  too_late,      ///< past max-days: not accepted, final score 0
  time_unknown,  ///< no trustworthy hand-in time: no penalty, and said so
};

/// "on_time", "in_grace", "late", "too_late", "time_unknown": the gradebook's late_outcome.
std::string_view to_string(LateStanding standing);

/// One hand-in judged against its deadline.
struct LateAssessment {
  LateStanding standing = LateStanding::time_unknown;
  std::int64_t seconds_late = 0;  ///< after the deadline (0 when on time or unknown)
  int days_late = 0;              ///< started days after the grace (0 when within it)
  double penalty_percent = 0.0;   ///< of the raw score: 100 when too late, never above

  /// Field-by-field equality.
  bool operator==(const LateAssessment&) const = default;
};

/// The standing of a hand-in at `submitted_unix` (nullopt: unknown) against `deadline_unix`. A
/// started day is 24 hours (86,400 s, whatever the clocks do) from the end of the grace: a hand-in
/// exactly at the end of the grace is in it, one second later is 1 day late; days_late days cost
/// days_late × percent_per_day, at most 100 %; more than max_days days is too late.
LateAssessment assess_lateness(const LatePolicy& policy, std::int64_t deadline_unix,
                               std::optional<std::int64_t> submitted_unix);

/// The points `assessment` takes from `raw_score` (its penalty percent of it; all of it when too
/// late), rounded to 0.01 point as reports show points, so that raw − penalty is the final score.
double late_penalty_points(const LateAssessment& assessment, double raw_score);

}  // namespace cugrade
