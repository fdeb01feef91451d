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

/// Seconds since the epoch of a time a program wrote with its zone, as git's %cI
/// ("2026-03-01T12:00:00+01:00") and Gradescope's created_at ("2026-03-01T11:52:39.927183-08:00")
/// do: a fraction of a second is dropped; without Z or an offset it is an error.
Result<std::int64_t> parse_timestamp(const std::string& text);

}  // namespace cugrade
