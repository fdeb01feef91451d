#pragma once
// The check that a call left its const inputs alone (design.md §4): a kernel that writes into
// its inputs can pass by accident, or leave a later call wrong.
#include <string>

#include "array_file.hpp"

namespace cugrade {

/// Returns a message naming each const input that the call modified (empty = unchanged): how
/// many elements changed and where the first is; an input missing after the call, or of another
/// shape, counts as modified. Arrays only in `after` are ignored.
std::string describe_modified_inputs(const ArraySet& before, const ArraySet& after);

}  // namespace cugrade
