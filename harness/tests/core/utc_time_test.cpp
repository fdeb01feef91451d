// The one way times are written: ISO 8601, UTC, to the second.
#include "core/utc_time.hpp"

#include <doctest/doctest.h>

#include <ctime>

using namespace cugrade;

TEST_CASE("core::iso8601_utc") {
  CHECK(iso8601_utc(0) == "1970-01-01T00:00:00Z");
  CHECK(iso8601_utc(1767225600) == "2026-01-01T00:00:00Z");
  CHECK(iso8601_utc(1767225599) == "2025-12-31T23:59:59Z");
}

TEST_CASE("core::utc_now_iso8601") {
  const std::int64_t before = static_cast<std::int64_t>(std::time(nullptr));
  const std::string now = utc_now_iso8601();
  const std::int64_t after = static_cast<std::int64_t>(std::time(nullptr));
  CHECK((now == iso8601_utc(before) || now == iso8601_utc(after)));
}
