#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "check/compare.hpp"
#include "fills.hpp"

using namespace cugrade;

namespace {
template <class T>
Array filled(DType type, std::vector<std::int64_t> dims, std::vector<T> values) {
  Array a = make_array(type, std::move(dims));
  REQUIRE(static_cast<std::int64_t>(values.size()) == a.size());
  for (std::size_t i = 0; i < values.size(); ++i) a.data<T>()[i] = values[i];
  return a;
}

Array f64(std::vector<double> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return filled<double>(DType::f64, {n}, std::move(v));
}

Comparison compare_ok(const Array& actual, const Array& expected, Tolerance tol, std::size_t listed = 5) {
  auto result = compare_array("C", actual, expected, tol, listed);
  REQUIRE(result.has_value());
  return *result;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("check::compare_array") {
  SUBCASE("a difference exactly at atol passes; just past it fails") {
    CHECK(compare_ok(f64({1.5}), f64({1.0}), {0.5, 0.0}).wrong == 0);
    CHECK(compare_ok(f64({1.5000001}), f64({1.0}), {0.5, 0.0}).wrong == 1);
  }
  SUBCASE("rtol scales with |expected|, also when expected is negative") {
    CHECK(compare_ok(f64({-5.0}), f64({-4.0}), {0.0, 0.25}).wrong == 0);
    CHECK(compare_ok(f64({-3.0}), f64({-4.0}), {0.0, 0.25}).wrong == 0);
    CHECK(compare_ok(f64({-5.01}), f64({-4.0}), {0.0, 0.25}).wrong == 1);
  }
  SUBCASE("NaN and Inf never pass, whatever the tolerance") {
    const Comparison c = compare_ok(f64({kNaN, kInf, -kInf, 2.0}), f64({1.0, 1.0, 1.0, 1.0}), {1e300, 1e300});
    CHECK(c.wrong == 3);
    CHECK(c.nonfinite == 3);
    CHECK(c.max_abs_error == 1.0);  // over the finite element only
  }
  SUBCASE("a float output is checked against a double gold") {
    Array actual = filled<float>(DType::f32, {2}, {1.0f, 2.5f});
    const Comparison c = compare_ok(actual, f64({1.0, 2.0}), {0.1, 0.0});
    CHECK(c.wrong == 1);
    CHECK(c.max_abs_error == 0.5);
    CHECK(c.max_rel_error == 0.25);
  }
  SUBCASE("the relative error skips a zero gold") {
    const Comparison c = compare_ok(f64({0.5, 1.5}), f64({0.0, 1.0}), {1.0, 0.0});
    CHECK(c.max_abs_error == 0.5);
    CHECK(c.max_rel_error == 0.5);
  }
  SUBCASE("integers compare exactly, ignoring the tolerance") {
    Array actual = filled<std::int32_t>(DType::i32, {3}, {5, 7, -2});
    Array expected = filled<std::int32_t>(DType::i32, {3}, {5, 6, -2});
    const Comparison c = compare_ok(actual, expected, {10.0, 1.0});
    CHECK(c.wrong == 1);
    REQUIRE(c.first.size() == 1);
    CHECK(c.first[0] == Mismatch{1, {1}, 6.0, 7.0});
  }
  SUBCASE("64-bit integers compare exactly beyond double precision") {
    const std::int64_t big = (std::int64_t{1} << 53);
    Array actual = filled<std::int64_t>(DType::i64, {1}, {big + 1});
    Array expected = filled<std::int64_t>(DType::i64, {1}, {big});
    CHECK(compare_ok(actual, expected, {1.0, 0.0}).wrong == 1);
  }
  SUBCASE("an integer output against a double gold is still exact") {
    Array actual = filled<std::uint32_t>(DType::u32, {2}, {3, 4});
    CHECK(compare_ok(actual, f64({3.0, 4.5}), {1.0, 0.0}).wrong == 1);
  }
  SUBCASE("the first mismatches, in index order, with (row, col)") {
    Array expected = make_array(DType::f32, {3, 4});
    Array actual = expected;
    for (int i : {1, 6, 7, 11}) actual.data<float>()[i] = 1.0f;
    const Comparison c = compare_ok(actual, expected, {0.0, 0.0}, 2);
    CHECK(c.array == "C");
    CHECK(c.checked == 12);
    CHECK(c.wrong == 4);
    REQUIRE(c.first.size() == 2);
    CHECK(c.first[0] == Mismatch{1, {0, 1}, 0.0, 1.0});
    CHECK(c.first[1] == Mismatch{6, {1, 2}, 0.0, 1.0});
  }
  SUBCASE("the pattern line is filled") {
    Array expected = make_array(DType::f32, {2, 2});
    Array actual = expected;
    for (int i = 0; i < 4; ++i) actual.data<float>()[i] = std::numeric_limits<float>::quiet_NaN();
    CHECK(compare_ok(actual, expected, {1.0, 0.0}).pattern.starts_with("every element is NaN or Inf, computed by your code"));
    for (int i = 0; i < 4; ++i)  // the runner's fill, untouched
      std::memcpy(actual.bytes.data() + 4 * i, &output_fill_f32_word, 4);
    CHECK(compare_ok(actual, expected, {1.0, 0.0}).pattern.starts_with(
        "every element still holds the value cugrade filled the output with before the call: never written"));
    CHECK(compare_ok(expected, expected, {0.0, 0.0}).pattern == "");
  }
  SUBCASE("value evidence: a matrix stored transposed") {
    Array expected = make_array(DType::f32, {2, 3});
    Array actual = expected;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) {
        expected.data<float>()[r * 3 + c] = static_cast<float>(10 * r + c + 1);
        actual.data<float>()[c * 2 + r] = static_cast<float>(10 * r + c + 1);
      }
    // (0, 0) and (1, 2) sit at the same index in both layouts: 4 of 6 are wrong.
    CHECK(compare_ok(actual, expected, {0.0, 0.0}).pattern ==
          "4 of 6 elements are wrong; it holds the right values at transposed positions: element (i, j) was stored "
          "at index j·2 + i (column-major) instead of i·3 + j — are the row and column indices swapped?");
  }
  SUBCASE("value evidence: integers off by one amount") {
    Array expected = make_array(DType::i64, {1});
    expected.data<std::int64_t>()[0] = 70000;
    Array actual = expected;
    actual.data<std::int64_t>()[0] = 70000 - 65536;  // a short that wrapped
    CHECK(compare_ok(actual, expected, {0.0, 0.0}).pattern ==
          "the only element is wrong; every wrong value is off by -65536, a multiple of 2^16: a 16-bit integer "
          "(short) overflowed on the way");
    actual.data<std::int64_t>()[0] = 70000 - 5921371;  // atomicAdd into a fresh, never zeroed int
    CHECK(compare_ok(actual, expected, {0.0, 0.0}).pattern.ends_with(
        "what fresh cudaMalloc memory holds on the CPU backend: something was added into device memory that was "
        "never zeroed (cudaMemset it to 0 first)"));
    actual.data<std::int64_t>()[0] = static_cast<std::int64_t>(0xFFFFFFFF00000000ull | 70000u);  // 4 of 8 bytes
    CHECK(compare_ok(actual, expected, {0.0, 0.0}).pattern.ends_with(
        "(an int copied or stored into a long long?), or a 32-bit int overflowed and was widened"));
    actual.data<std::int64_t>()[0] = 70001;  // nothing in common
    CHECK(compare_ok(actual, expected, {0.0, 0.0}).pattern == "the only element is wrong");
  }
  SUBCASE("a shape mismatch is an error, not a comparison") {
    auto result = compare_array("C", make_array(DType::f32, {64, 32}), make_array(DType::f32, {65, 33}), {});
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().message == "output C has shape 64×32, but 65×33 was expected");
  }
  SUBCASE("storage that does not match the shape is an error") {
    Array actual = make_array(DType::f32, {2, 2});
    actual.bytes.resize(12);
    auto result = compare_array("C", actual, make_array(DType::f32, {2, 2}), {});
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().message == "output C holds 12 bytes, which is not a 2×2 array of f32");
  }
  SUBCASE("a NaN in the gold is a harness bug") {
    CHECK_THROWS_AS((void)compare_array("C", f64({1.0}), f64({kNaN}), {}), std::logic_error);
  }
}

TEST_CASE("check::compare_array slack") {
  const Array expected = f64({1.0, 1.0, 1.0});
  const Array actual = f64({1.5, 1.5, 1.5});
  const Tolerance tol{0.1, 0.0};
  SUBCASE("each element may differ by its own slack more than atol + rtol·|expected|") {
    const Array slack = f64({0.4, 0.39, 0.0});
    auto result = compare_array("AX", actual, expected, tol, 5, &slack);
    REQUIRE(result.has_value());
    CHECK(result->wrong == 2);
    REQUIRE(result->first.size() == 2);
    CHECK(result->first[0].index == 1);
    CHECK(result->first[1].index == 2);
    CHECK(result->max_abs_error == 0.5);  // the errors themselves are reported as they are
  }
  SUBCASE("a slack of 0 everywhere is the comparison without one") {
    const Array zero = f64({0.0, 0.0, 0.0});
    auto with = compare_array("AX", actual, expected, tol, 5, &zero);
    auto without = compare_array("AX", actual, expected, tol);
    REQUIRE(with.has_value());
    REQUIRE(without.has_value());
    CHECK(with->wrong == without->wrong);
    CHECK(with->pattern == without->pattern);
  }
  SUBCASE("NaN never passes, whatever the slack") {
    const Array huge = f64({1e300, 1e300, 1e300});
    auto result = compare_array("AX", f64({kNaN, 1.0, 1.0}), expected, tol, 5, &huge);
    REQUIRE(result.has_value());
    CHECK(result->wrong == 1);
  }
  SUBCASE("a slack that is negative, not finite or of another shape is a harness bug") {
    const Array negative = f64({0.0, -1.0, 0.0});
    const Array infinite = f64({0.0, kInf, 0.0});
    const Array shorter = f64({0.0, 0.0});
    CHECK_THROWS_AS((void)compare_array("AX", actual, expected, tol, 5, &negative), std::logic_error);
    CHECK_THROWS_AS((void)compare_array("AX", actual, expected, tol, 5, &infinite), std::logic_error);
    CHECK_THROWS_AS((void)compare_array("AX", actual, expected, tol, 5, &shorter), std::logic_error);
  }
}

TEST_CASE("check::slack_name") {
  CHECK(slack_name("AX") == "AX.slack");
  CHECK(is_slack_name("AX.slack"));
  CHECK_FALSE(is_slack_name("AX"));
  CHECK_FALSE(is_slack_name(".slack"));
  CHECK_FALSE(is_slack_name("AX.slack2"));
}
