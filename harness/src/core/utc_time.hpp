#pragma once
// Times as reports, records and caches write them: ISO 8601 in UTC, to the second.
#include <cstdint>
#include <string>

namespace cugrade {

/// "2026-03-01T12:00:00Z" for seconds since the epoch.
std::string iso8601_utc(std::int64_t unix_seconds);

/// The current time, as iso8601_utc writes it.
std::string utc_now_iso8601();

}  // namespace cugrade
