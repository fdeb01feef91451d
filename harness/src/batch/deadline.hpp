#pragma once
// `--deadline`: when submissions were due, as a TA writes it.
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace cugrade {

/// Seconds since the epoch of "2026-03-01T23:59", "2026-03-01 23:59:30", "2026-03-01T23:59:00Z",
/// "2026-03-01T23:59:00+01:00" or "2026-03-01" (the end of that day, 23:59:59). Without Z or an
/// offset the time is this machine's local time. Anything else is an error showing the forms.
Result<std::int64_t> parse_deadline(const std::string& text);

}  // namespace cugrade
