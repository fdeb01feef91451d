#include <doctest/doctest.h>

#include <cstring>

#include "check/fill_evidence.hpp"
#include "fills.hpp"

using namespace cugrade;

namespace {
/// A one-element array of `type` whose bytes are `word` repeated (the low `size` bytes of it).
Array holding(DType type, std::uint32_t word) {
  Array a = make_array(type, {1});
  for (std::size_t b = 0; b < a.bytes.size(); ++b) a.bytes[b] = static_cast<std::uint8_t>(word >> (8 * (b % 4)));
  return a;
}
}  // namespace

TEST_CASE("check::fill_of") {
  SUBCASE("f32: the runner's signalling fill, and what arithmetic on it leaves") {
    CHECK(fill_of(holding(DType::f32, output_fill_f32_word), 0) == Fill::output);
    CHECK(fill_of(holding(DType::f32, output_fill_f32_quieted), 0) == Fill::output_added);
    CHECK(fill_of(holding(DType::f32, fresh_device_fill_word), 0) == Fill::device);
    CHECK(fill_of(holding(DType::f32, fresh_device_fill_word | 0x00400000u), 0) == Fill::device_added);
    // Its first byte copied, the other three still the fill: a byte count that stopped inside it.
    CHECK(fill_of(holding(DType::f32, (output_fill_f32_word & 0xFFFFFF00u) | 0x42u), 0) == Fill::output_partial);
    // A NaN the code computed (x86's 0/0) is none of them.
    CHECK(fill_of(holding(DType::f32, 0xFFC00000u), 0) == Fill::none);
    CHECK(fill_of(holding(DType::f32, 0x3F800000u), 0) == Fill::none);  // 1.0f
  }
  SUBCASE("other dtypes: every byte 0xFF, or the device word") {
    CHECK(fill_of(holding(DType::i64, 0xFFFFFFFFu), 0) == Fill::output);
    CHECK(fill_of(holding(DType::i32, 0xFFFFFFFFu), 0) == Fill::output);
    CHECK(fill_of(holding(DType::f64, 0xFFFFFFFFu), 0) == Fill::output);
    CHECK(fill_of(holding(DType::i32, fresh_device_fill_word), 0) == Fill::device);
    CHECK(fill_of(holding(DType::f64, fresh_device_fill_word), 0) == Fill::device);
    CHECK(fill_of(holding(DType::i32, 7u), 0) == Fill::none);
  }
}

TEST_CASE("check::describe_value_evidence") {
  const Tolerance exact{0.0, 0.0, ""};
  SUBCASE("nothing in common: no line") {
    Array expected = make_array(DType::i32, {3});
    Array actual = expected;
    actual.data<std::int32_t>()[0] = 5;
    actual.data<std::int32_t>()[2] = 6;
    CHECK(describe_value_evidence(actual, expected, {true, false, true}, exact) == "");
  }
  SUBCASE("a 32-bit overflow") {
    Array expected = make_array(DType::i64, {2});
    // Sums that stay positive after the wrap (a negative one looks like an int widened, below).
    expected.data<std::int64_t>()[0] = 5'000'000'000LL;
    expected.data<std::int64_t>()[1] = 5'000'000'001LL;
    Array actual = expected;
    for (int i = 0; i < 2; ++i) actual.data<std::int64_t>()[i] -= 1LL << 32;
    CHECK(describe_value_evidence(actual, expected, {true, true}, exact) ==
          "every wrong value is off by -4294967296, a multiple of 2^32: a 32-bit int overflowed on the way");
  }
  SUBCASE("a one-row matrix has no transposed layout to tell") {
    Array expected = make_array(DType::f32, {1, 4});
    Array actual = expected;
    actual.data<float>()[3] = 1.0f;
    CHECK(describe_value_evidence(actual, expected, {false, false, false, true}, exact) == "");
  }
}
