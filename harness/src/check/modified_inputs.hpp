#pragma once
// The check that a call left its const inputs alone (design.md §4): a kernel that writes into
// its inputs can pass by accident, or leave a later call wrong.
#include <map>
#include <set>
#include <string>

#include "array_file.hpp"

namespace cugrade {

/// Returns a message naming each const input that the call modified (empty = unchanged): how
/// many elements changed and where the first is; an input missing after the call, or of another
/// shape, counts as modified. Arrays only in `after` are ignored, and so are those named in
/// `in_out` (inputs that are also outputs: the call writes them).
std::string describe_modified_inputs(const ArraySet& before, const ArraySet& after,
                                     const std::set<std::string>& in_out = {});

/// The same verdict from the digests (array_digest) a runner reports in its done event, which
/// arrive as the call returns: "" when every const input of `before` (name → its digest before
/// the call; those named in `in_out` left out) has that digest in `digests`, else which was
/// changed or not reported. A read-back file can be rewritten after the fact by the student's
/// process; an event already read cannot.
std::string describe_input_digests(const std::map<std::string, std::string>& before,
                                   const std::map<std::string, std::string>& digests,
                                   const std::set<std::string>& in_out = {});

}  // namespace cugrade
