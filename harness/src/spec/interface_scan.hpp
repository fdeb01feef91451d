#pragma once
// What an interface.cuh declares, found by a plain text scan: the loader only needs to know that
// each step's entry point is named there, not to parse C++.
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// Every identifier followed by '(' (spaces allowed before it) outside comments, in order of
/// first appearance: the functions the text declares (plus keywords such as `if`, harmlessly).
std::vector<std::string> called_or_declared_names(std::string_view source);

}  // namespace cugrade
