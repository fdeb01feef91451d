#include "body_reach.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cugrade {
namespace {

/// body_reach for one row of n bodies, into `out`.
void reach_of_row(const float* x, const float* y, std::int64_t n, double keep_apart, double reach, float* out) {
  const double sqrt8 = 2.0 * std::sqrt(2.0);
  // Nothing beyond `cap` changes a reach: a neighbour that far leaves the body its whole reach.
  const double cap = keep_apart + sqrt8 * reach;
  std::vector<std::int64_t> order;
  order.reserve(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    if (std::isfinite(x[j]) && std::isfinite(y[j])) order.push_back(j);
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return x[a] < x[b]; });
  std::vector<double> nearest(static_cast<std::size_t>(n), cap);
  for (std::size_t a = 0; a < order.size(); ++a)
    for (std::size_t b = a + 1; b < order.size(); ++b) {
      const std::int64_t i = order[a], k = order[b];
      const double dx = static_cast<double>(x[k]) - x[i];
      if (dx >= cap) break;
      const double dy = static_cast<double>(y[k]) - y[i];
      const double d = std::sqrt(dx * dx + dy * dy);
      nearest[i] = std::min(nearest[i], d);
      nearest[k] = std::min(nearest[k], d);
    }
  std::fill(out, out + n, 0.0f);
  for (const std::int64_t j : order) {
    const double room = (nearest[j] - keep_apart) / sqrt8;
    // Rounded down to float, so that the reach a runner applies never exceeds the one proved.
    if (room > 0) out[j] = std::nextafter(static_cast<float>(std::min(reach, room)), 0.0f);
  }
}

}  // namespace

std::vector<float> body_reach(const float* x, const float* y, std::int64_t rows, std::int64_t n,
                              double keep_apart, double reach) {
  std::vector<float> out(static_cast<std::size_t>(std::max<std::int64_t>(rows * n, 0)), 0.0f);
  if (reach <= 0 || n <= 0) return out;
  for (std::int64_t r = 0; r < rows; ++r) reach_of_row(x + r * n, y + r * n, n, keep_apart, reach, out.data() + r * n);
  return out;
}

}  // namespace cugrade
