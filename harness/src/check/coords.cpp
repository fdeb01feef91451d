#include "check/coords.hpp"

#include <cmath>

#include <fmt/format.h>

namespace cugrade {

std::vector<std::int64_t> unravel_index(std::int64_t index, const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> coords(dims.size(), 0);
  for (std::size_t k = dims.size(); k-- > 0;) {
    if (dims[k] <= 0) continue;
    coords[k] = index % dims[k];
    index /= dims[k];
  }
  return coords;
}

std::string describe_position(const std::vector<std::int64_t>& coords) {
  if (coords.empty()) return "the value";
  if (coords.size() == 1) return fmt::format("index {}", coords[0]);
  if (coords.size() == 2) return fmt::format("(row {}, col {})", coords[0], coords[1]);
  return fmt::format("({})", fmt::join(coords, ", "));
}

std::string format_magnitude(double value) {
  const double a = std::fabs(value);
  if (a == 0.0 || !std::isfinite(value) || (a >= 0.01 && a < 1000.0)) return fmt::format("{:.3g}", value);
  // fmt writes "3.1e-03"; students read "3.1e-3" more easily.
  std::string text = fmt::format("{:.1e}", value);
  const auto e = text.find('e');
  if (e != std::string::npos) {
    std::size_t digits = e + 2;
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
  }
  return text;
}

}  // namespace cugrade
