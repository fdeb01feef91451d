#pragma once
// SHA-256 of submission contents, so a report names exactly what was graded.
#include <string>
#include <string_view>

namespace cugrade {

/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace cugrade
