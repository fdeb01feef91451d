#include "batch/late_policy.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "report/report_format.hpp"
#include "spec/suggest.hpp"

namespace cugrade {

namespace {

constexpr std::int64_t kDay = 86400;
constexpr const char* kForm =
    "expected keys grace, per-day and max-days, e.g. --late-policy \"grace=15m,per-day=10%,max-days=3\" "
    "(grace: a whole number and s, m, h or d; per-day: a percent of the raw score per started day after "
    "the grace, with its % sign; max-days: whole days, after which a hand-in is not accepted)";

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// A whole number of `text` alone, or nullopt.
std::optional<std::int64_t> whole_number(std::string_view text) {
  std::int64_t value = 0;
  if (text.empty()) return std::nullopt;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

Result<std::int64_t> parse_grace(std::string_view value) {
  const std::string shown = "--late-policy: grace=" + excerpt(value, 40);
  if (value == "0") return std::int64_t{0};
  if (value.empty()) return fail(shown + ": give a duration such as 15m, 2h, 1d or 30s");
  const char unit = value.back();
  const std::int64_t scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? kDay : 0;
  const auto number = whole_number(value.substr(0, value.size() - 1));
  if (!scale || !number)
    return fail(shown + ": give a whole number and its unit: 15m (minutes), 2h (hours), 1d (days) or 30s (seconds)");
  if (*number > 365 * kDay / scale) return fail(shown + ": longer than a year; a grace is minutes or hours");
  return *number * scale;
}

Result<double> parse_percent(std::string_view value) {
  const std::string shown = "--late-policy: per-day=" + excerpt(value, 40);
  if (value.empty() || value.back() != '%')
    return fail(shown + ": write the percent sign, e.g. per-day=10% (10 % of the raw score per started day)");
  value.remove_suffix(1);
  double percent = 0.0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), percent);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || !std::isfinite(percent) ||
      percent < 0.0 || percent > 100.0)
    return fail(shown + ": a percent from 0% to 100%, e.g. per-day=10% or per-day=12.5%");
  return percent;
}

Result<int> parse_max_days(std::string_view value) {
  const auto number = whole_number(value);
  if (!number || *number > 3650)
    return fail("--late-policy: max-days=" + excerpt(value, 40) +
                ": a whole number of days (0: nothing accepted after the grace)");
  return static_cast<int>(*number);
}

std::string duration_words(std::int64_t seconds) {
  if (seconds % kDay == 0) return fmt::format("{} d", seconds / kDay);
  if (seconds % 3600 == 0) return fmt::format("{} h", seconds / 3600);
  if (seconds % 60 == 0) return fmt::format("{} min", seconds / 60);
  return fmt::format("{} s", seconds);
}

}  // namespace

Result<LatePolicy> parse_late_policy(std::string_view text) {
  static const std::vector<std::string> keys{"grace", "per-day", "max-days"};
  if (trimmed(text).empty()) return fail(std::string("--late-policy is empty: ") + kForm);
  LatePolicy policy;
  std::vector<std::string> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = trimmed(text.substr(start, end - start));
    start = end + 1;
    if (item.empty()) return fail("--late-policy '" + excerpt(text) + "': an empty item between commas; " + kForm);
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos)
      return fail("--late-policy: '" + excerpt(item, 40) + "' has no value; " + kForm);
    const std::string key(trimmed(item.substr(0, equals)));
    const std::string_view value = trimmed(item.substr(equals + 1));
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      return fail("--late-policy: unknown key '" + excerpt(key, 40) + "'" + did_you_mean(key, keys) + "; " + kForm);
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return fail("--late-policy: " + key + " is given twice");
    seen.push_back(key);
    if (key == "grace") {
      auto grace = parse_grace(value);
      if (!grace) return std::unexpected(grace.error());
      policy.grace_seconds = *grace;
    } else if (key == "per-day") {
      auto percent = parse_percent(value);
      if (!percent) return std::unexpected(percent.error());
      policy.percent_per_day = *percent;
    } else {
      auto days = parse_max_days(value);
      if (!days) return std::unexpected(days.error());
      policy.max_days = *days;
    }
  }
  return policy;
}

std::string describe_late_policy(const LatePolicy& policy) {
  std::string text = policy.grace_seconds ? duration_words(policy.grace_seconds) + " grace, then " : "";
  text += fmt::format("{} % per started day", format_points(policy.percent_per_day));
  if (policy.max_days)
    text += *policy.max_days == 0 ? std::string(policy.grace_seconds ? ", not accepted after the grace" : ", not accepted late")
                                  : fmt::format(", not accepted after {} day{}", *policy.max_days,
                                                *policy.max_days == 1 ? "" : "s");
  return text;
}

std::string_view to_string(LateStanding standing) {
  switch (standing) {
    case LateStanding::on_time: return "on_time";
    case LateStanding::in_grace: return "in_grace";
    case LateStanding::late: return "late";
    case LateStanding::too_late: return "too_late";
    case LateStanding::time_unknown: return "time_unknown";
  }
  return "time_unknown";
}

LateAssessment assess_lateness(const LatePolicy& policy, std::int64_t deadline_unix,
                               std::optional<std::int64_t> submitted_unix) {
  LateAssessment a;
  if (!submitted_unix) return a;
  if (*submitted_unix <= deadline_unix) {
    a.standing = LateStanding::on_time;
    return a;
  }
  a.seconds_late = *submitted_unix - deadline_unix;
  if (a.seconds_late <= policy.grace_seconds) {
    a.standing = LateStanding::in_grace;
    return a;
  }
  const std::int64_t after_grace = a.seconds_late - policy.grace_seconds;
  const std::int64_t days = (after_grace + kDay - 1) / kDay;  // started days
  a.days_late = static_cast<int>(std::min<std::int64_t>(days, 1 << 30));
  if (policy.max_days && a.days_late > *policy.max_days) {
    a.standing = LateStanding::too_late;
    a.penalty_percent = 100.0;
    return a;
  }
  a.standing = LateStanding::late;
  a.penalty_percent = std::min(100.0, policy.percent_per_day * a.days_late);
  return a;
}

double late_penalty_points(const LateAssessment& assessment, double raw_score) {
  // In hundredths, as reports show points: the gradebook's raw − penalty is its final score.
  const double raw = std::round(raw_score * 100.0) / 100.0;
  if (assessment.standing == LateStanding::too_late) return raw;
  if (assessment.standing != LateStanding::late) return 0.0;
  return std::min(raw, std::round(raw * assessment.penalty_percent) / 100.0);
}

}  // namespace cugrade
