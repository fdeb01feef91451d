#pragma once
// Reading assignment.yaml's `allowed_libraries:` (spec/libraries.hpp lists the names).
#include <string>
#include <vector>

#include "spec/yaml_reader.hpp"

namespace cugrade {

/// The libraries `field` lists (absent: none), each a name from optional_libraries(), once;
/// an unknown name is reported with the names it may be (and the nearest, when near).
std::vector<std::string> parse_allowed_libraries(const Field& field, Diagnostics& diags);

}  // namespace cugrade
