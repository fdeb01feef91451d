#include "batch/deadline.hpp"

#include <ctime>
#include <regex>

namespace cugrade {

Result<std::int64_t> parse_deadline(const std::string& text) {
  static const std::regex form(
      R"(^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?$)");
  std::smatch m;
  if (!std::regex_match(text, m, form))
    return fail("--deadline '" + text +
                "': expected a date and time such as 2026-03-01T23:59, 2026-03-01 23:59:30, "
                "2026-03-01T23:59:00Z, 2026-03-01T23:59:00+01:00, or a date alone (the end of that day)");
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  const bool has_time = m[4].matched;
  tm.tm_hour = has_time ? std::stoi(m[4]) : 23;
  tm.tm_min = has_time ? std::stoi(m[5]) : 59;
  tm.tm_sec = m[6].matched ? std::stoi(m[6]) : (has_time ? 0 : 59);
  if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
    return fail("--deadline '" + text + "': not a valid date and time");
  const std::tm asked = tm;
  std::time_t when;
  if (m[7].matched) {
    when = timegm(&tm);
    const std::string zone = m[7];
    if (zone != "Z") {
      const int sign = zone[0] == '-' ? -1 : 1;
      const std::string digits = std::regex_replace(zone.substr(1), std::regex(":"), "");
      const int offset = std::stoi(digits.substr(0, 2)) * 3600 + std::stoi(digits.substr(2, 2)) * 60;
      when -= sign * offset;
    }
  } else {
    tm.tm_isdst = -1;  // the local zone's own rule for that date
    when = std::mktime(&tm);
  }
  // timegm/mktime normalize 2026-02-31 into March: refuse it instead.
  if (tm.tm_mday != asked.tm_mday || tm.tm_mon != asked.tm_mon) return fail("--deadline '" + text + "': no such date");
  return static_cast<std::int64_t>(when);
}

Result<std::int64_t> parse_timestamp(const std::string& text) {
  static const std::regex form(R"(^\s*(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return fail("not a time with its zone: '" + text.substr(0, 60) + "'");
  return parse_deadline(std::string(m[1]) + std::string(m[2]));
}

}  // namespace cugrade
