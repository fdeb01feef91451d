#include "core/utc_time.hpp"

#include <ctime>

namespace cugrade {

std::string iso8601_utc(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string utc_now_iso8601() { return iso8601_utc(static_cast<std::int64_t>(std::time(nullptr))); }

}  // namespace cugrade
