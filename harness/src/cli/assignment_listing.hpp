#pragma once
// What `cugrade list` prints: each assignment, the steps a student writes (their entry points,
// what each is, and where it is timed), in columns as wide as the assignment's longest names.
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/locations.hpp"

namespace cugrade {

/// The listing of the assignments `ids` (every one below `where` when empty), in that order. An
/// id that is not an assignment fails it, with the nearest id where one is near ("did you mean");
/// an assignment whose spec does not load is listed as such, with the lint command that says why.
Result<std::string> assignment_listing(const Locations& where, const std::vector<std::string>& ids);

}  // namespace cugrade
