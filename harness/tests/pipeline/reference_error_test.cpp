#include "pipeline/reference_error.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "array_file.hpp"

#include "test_arrays.hpp"

using namespace cugrade;
using cugrade::test::f32;
using cugrade::test::f64;

TEST_CASE("pipeline::tolerance_use") {
  SUBCASE("the largest error over atol + rtol·|gold|, and the largest error") {
    // Allowed 0.5 + 0.25·4 = 1.5 and 0.5 + 0.25·2 = 1: shares 0.5 and 0.5; 0.25 of 1.
    const ToleranceUse use = tolerance_use(f32({4.75f, 2.5f, 1.25f}), f64({4.0, 2.0, 1.0}), {0.5, 0.25});
    CHECK(use.share == doctest::Approx(0.5));
    CHECK(use.max_abs_error == doctest::Approx(0.75));
  }
  SUBCASE("elements the grader gives slack are left out") {
    const Array slack = f64({0.0, 100.0});
    const ToleranceUse use = tolerance_use(f64({1.1, 50.0}), f64({1.0, 1.0}), {0.5, 0.0}, &slack);
    CHECK(use.share == doctest::Approx(0.2));
    CHECK(use.max_abs_error == doctest::Approx(0.1));
  }
  SUBCASE("a value not finite, or a difference where nothing is allowed, uses it infinitely") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(tolerance_use(f64({std::nan("")}), f64({1.0}), {1.0, 0.0}).share == inf);
    CHECK(tolerance_use(f64({0.5}), f64({0.0}), {0.0, 1e-6}).share == inf);  // rtol alone at a zero gold
    CHECK(tolerance_use(f64({0.0, 2.0}), f64({0.0, 2.0}), {0.0, 1e-6}).share == 0.0);
  }
}
