// The grader of assignment reduction (graders/reduction/grader.cpp): what the harness relies on
// to judge a sum of ints.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "graders/grader.hpp"
#include "mistake_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {
namespace {

const Grader& reduction() {
  const Grader* grader = find_grader("reduction");
  REQUIRE(grader != nullptr);
  return *grader;
}

Case reduction_case(std::int64_t n, std::uint64_t seed = 1) {
  Case c;
  c.step = "reduce1";
  c.params = {{"n", n}};
  c.id = "reduce1/" + params_to_string(c.params) + "/seed=" + std::to_string(seed);
  c.seed = seed;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return reduction().generate(c, rng);
}

Array i32_array(std::initializer_list<std::int32_t> values) {
  Array array = make_array(DType::i32, {static_cast<std::int64_t>(values.size())});
  std::memcpy(array.bytes.data(), values.begin(), values.size() * sizeof(std::int32_t));
  return array;
}

using Dims = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("reduction_grader::generate") {
  SUBCASE("the same seed gives the same bytes; another seed other inputs") {
    const CaseData first = generate(reduction_case(1000, 3));
    const CaseData again = generate(reduction_case(1000, 3));
    const CaseData other = generate(reduction_case(1000, 4));
    CHECK(first.inputs.at("in").bytes == again.inputs.at("in").bytes);
    CHECK(first.inputs.at("in").bytes != other.inputs.at("in").bytes);
  }
  SUBCASE("in is n i32 values in [-1000, 1000] of both signs; the runner must produce one i64") {
    const CaseData data = generate(reduction_case(4096));
    REQUIRE(data.inputs.size() == 1);
    const Array& in = data.inputs.at("in");
    CHECK(in.type == DType::i32);
    CHECK(in.dims == Dims{4096});
    bool negative = false, positive = false;
    for (std::int64_t i = 0; i < in.size(); ++i) {
      const std::int32_t v = in.data<std::int32_t>()[i];
      CHECK(v >= -1000);
      CHECK(v <= 1000);
      negative = negative || v < 0;
      positive = positive || v > 0;
    }
    CHECK(negative);
    CHECK(positive);
    REQUIRE(data.outputs.size() == 1);
    CHECK(data.outputs.at("out").type == DType::i64);
    CHECK(data.outputs.at("out").dims == Dims{1});
  }
  SUBCASE("a case without n, or with n = 0, is an authoring error") {
    Case no_n = reduction_case(5);
    no_n.params.erase("n");
    CHECK_THROWS_AS(generate(no_n), std::invalid_argument);
    CHECK_THROWS_AS(generate(reduction_case(0)), std::invalid_argument);
  }
}

TEST_CASE("reduction_grader::gold") {
  SUBCASE("a small sum computed by hand") {
    const ArraySet expected = reduction().gold(reduction_case(4), ArraySet{{"in", i32_array({5, -7, 1000, -1})}});
    REQUIRE(expected.size() == 1);
    const Array& out = expected.at("out");
    CHECK(out.type == DType::i64);
    CHECK(out.dims == Dims{1});
    CHECK(out.data<std::int64_t>()[0] == 997);
  }
  SUBCASE("a sum past the range of an int is exact") {
    const std::int64_t n = 3'000'000;
    Array in = make_array(DType::i32, {n});
    for (std::int64_t i = 0; i < n; ++i) in.data<std::int32_t>()[i] = 1000;
    const ArraySet expected = reduction().gold(reduction_case(n), ArraySet{{"in", std::move(in)}});
    CHECK(expected.at("out").data<std::int64_t>()[0] == 3'000'000'000LL);
  }
}

TEST_CASE("reduction_grader::work") {
  const Work work = reduction().work("reduce7", Params{{"n", 1 << 26}});
  CHECK(work.bytes == 4.0 * (1 << 26));
  CHECK(work.flops == 0.0);
  CHECK(work.rate_unit == "GB/s");
}

TEST_CASE("reduction_grader::spec cases") {
  // Every case the spec declares, hidden ones included, can be generated and judged.
  auto spec = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments/reduction/assignment.yaml");
  REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
  for (const Case& c : expand_cases(*spec, CourseSecret("12345"))) {
    if (c.step != "reduce1") continue;  // every step shares generator and gold
    CAPTURE(c.id);
    const CaseData data = generate(c);
    CHECK(reduction().gold(c, data.inputs).at("out").dims == data.outputs.at("out").dims);
  }
}

TEST_CASE("reduction_grader::mistakes") {
  using testing::explanation_of;
  using testing::named_mistake;
  const Case c = reduction_case(1000);
  const CaseData data = generate(c);
  const std::int32_t* in = data.inputs.at("in").data<std::int32_t>();
  /// The sum of in[first..last) plus `extra`, as a kernel would write it.
  const auto sum = [&](std::int64_t first, std::int64_t last, std::int64_t extra) {
    Array out = make_array(DType::i64, {1});
    std::int64_t total = extra;
    for (std::int64_t i = first; i < last; ++i) total += in[i];
    out.data<std::int64_t>()[0] = total;
    return ArraySet{{"out", std::move(out)}};
  };
  REQUIRE(in[0] != 0);  // seed 1: an element left out changes the sum
  REQUIRE(in[999] != 0);
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 1000, 0)) == "");
  CHECK(named_mistake(reduction(), c, data.inputs, sum(1, 1000, 0)) == explanation_of(reduction(), "first element left out"));
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 999, 0)) == explanation_of(reduction(), "last element left out"));
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 1000, -1)) == explanation_of(reduction(), "poison counted in"));
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 1000, 7)) == "");
  // A grid of n / B blocks, rounded down: the last 1000 mod B elements are left out.
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 896, 0)) ==
        explanation_of(reduction(), "last partial block of 128 left out"));
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 768, 0)) ==
        explanation_of(reduction(), "last partial block of 256 left out"));
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 512, 0)) ==
        explanation_of(reduction(), "last partial block of 512 left out"));
  // A two-loads-per-thread step (reduce4) of 128 threads a block, its index off: 4 blocks, then one.
  Case two_loads = c;
  two_loads.step = "reduce4";
  const auto range = [&](std::int64_t first, std::int64_t last) { return sum(first, last, 0).at("out").data<std::int64_t>()[0]; };
  // Block b starting at b·128, not b·256: blocks overlap by 128 and elements 640 on are never read.
  const std::int64_t overlapping = range(0, 256) + range(128, 384) + range(256, 512) + range(384, 640);
  CHECK(named_mistake(reduction(), two_loads, data.inputs, sum(0, 0, overlapping)) ==
        explanation_of(reduction(), "block start without the factor 2 (128 threads)"));
  // The second load at in[i + 1], not in[i + 128]; relaunched over the 4 partial sums p, the same
  // kernel's one block adds p[t] + p[t + 1] for t < 4: p0 + 2·(p1 + p2 + p3).
  std::int64_t p[4];
  for (std::int64_t b = 0; b < 4; ++b) p[b] = range(256 * b, 256 * b + 128) + range(256 * b + 1, 256 * b + 129);
  const std::int64_t next = p[0] + 2 * (p[1] + p[2] + p[3]);
  CHECK(named_mistake(reduction(), two_loads, data.inputs, sum(0, 0, next)) ==
        explanation_of(reduction(), "second load at i + 1 (128 threads)"));
  // Only the steps with two loads a thread are asked.
  CHECK(named_mistake(reduction(), c, data.inputs, sum(0, 0, overlapping)) == "");
  // Where n is no larger than the block, a rounded-down grid has no block to drop from: no model.
  const Case small = reduction_case(100);
  const CaseData small_data = generate(small);
  Array none = make_array(DType::i64, {1});
  CHECK(named_mistake(reduction(), small, small_data.inputs, ArraySet{{"out", none}}) == "");
}

}  // namespace cugrade
