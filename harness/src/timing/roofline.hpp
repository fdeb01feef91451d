#pragma once
// The roofline floor: the least time the work of one call can take on a GPU (design.md §4).
// A measured time far below it is not fast, it is impossible: work escaped the timer.
#include <optional>

#include "graders/grader.hpp"
#include "timing/ceilings.hpp"

namespace cugrade {

/// The smallest time physically possible for `work` on a GPU with these ceilings, in ms:
/// max(bytes / copy bandwidth, flops / SGEMM rate), a ceiling of 0 contributing nothing; 0 when
/// there are no ceilings.
double roofline_floor_ms(const Work& work, const std::optional<Ceilings>& ceilings);

}  // namespace cugrade
