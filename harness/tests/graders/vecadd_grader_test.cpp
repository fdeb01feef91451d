// The grader of assignment vecadd (graders/vecadd/grader.cpp): what the harness relies on to
// judge a vector addition.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "graders/grader.hpp"
#include "mistake_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {
namespace {

const Grader& vecadd() {
  const Grader* grader = find_grader("vecadd");
  REQUIRE(grader != nullptr);
  return *grader;
}

Case vecadd_case(std::int64_t n, std::uint64_t seed = 1) {
  Case c;
  c.id = "vecadd/n=" + std::to_string(n) + "/seed=" + std::to_string(seed);
  c.step = "vecadd";
  c.params = {{"n", n}};
  c.seed = seed;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return vecadd().generate(c, rng);
}

bool same_bytes(const ArraySet& x, const ArraySet& y) {
  if (x.size() != y.size()) return false;
  for (const auto& [name, array] : x) {
    const auto it = y.find(name);
    if (it == y.end() || it->second.type != array.type || it->second.dims != array.dims ||
        it->second.bytes != array.bytes)
      return false;
  }
  return true;
}

Array f32_vector(std::initializer_list<float> values) {
  Array array = make_array(DType::f32, {static_cast<std::int64_t>(values.size())});
  std::memcpy(array.bytes.data(), values.begin(), values.size() * sizeof(float));
  return array;
}

}  // namespace

TEST_CASE("vecadd_grader::generate") {
  SUBCASE("the same seed gives the same bytes") {
    CHECK(same_bytes(generate(vecadd_case(1000, 7)).inputs, generate(vecadd_case(1000, 7)).inputs));
  }
  SUBCASE("another seed gives other inputs") {
    CHECK_FALSE(same_bytes(generate(vecadd_case(1000, 7)).inputs, generate(vecadd_case(1000, 8)).inputs));
  }
  SUBCASE("A and B are two different f32 vectors of n values in [-1, 1)") {
    const CaseData data = generate(vecadd_case(4097));
    REQUIRE(data.inputs.size() == 2);
    for (const char* name : {"A", "B"}) {
      const Array& array = data.inputs.at(name);
      CHECK(array.type == DType::f32);
      CHECK(array.dims == std::vector<std::int64_t>{4097});
      for (std::int64_t i = 0; i < array.size(); ++i) {
        CHECK(array.value(i) >= -1.0);
        CHECK(array.value(i) < 1.0);
      }
    }
    CHECK(data.inputs.at("A").bytes != data.inputs.at("B").bytes);
  }
  SUBCASE("the runner must produce C, an f32 vector of n elements") {
    const CaseData data = generate(vecadd_case(257));
    REQUIRE(data.outputs.size() == 1);
    CHECK(data.outputs.at("C").type == DType::f32);
    CHECK(data.outputs.at("C").dims == std::vector<std::int64_t>{257});
  }
  SUBCASE("n = 1 is a valid size; a case without n is an authoring error") {
    CHECK(generate(vecadd_case(1)).inputs.at("A").dims == std::vector<std::int64_t>{1});
    Case no_n = vecadd_case(1);
    no_n.params.clear();
    CHECK_THROWS_AS(generate(no_n), std::invalid_argument);
  }
}

TEST_CASE("vecadd_grader::gold") {
  SUBCASE("three elements computed by hand") {
    const ArraySet inputs{{"A", f32_vector({1.0f, -0.5f, 0.25f})}, {"B", f32_vector({2.0f, 0.5f, 0.125f})}};
    const ArraySet expected = vecadd().gold(vecadd_case(3), inputs);
    REQUIRE(expected.size() == 1);
    const Array& c = expected.at("C");
    CHECK(c.dims == std::vector<std::int64_t>{3});
    CHECK(c.value(0) == 3.0);
    CHECK(c.value(1) == 0.0);
    CHECK(c.value(2) == 0.375);
  }
  SUBCASE("the sum is exact, not rounded to float") {
    // 1 + 2^-24 rounds to 1.0f in float; the gold must keep it.
    const ArraySet inputs{{"A", f32_vector({1.0f})}, {"B", f32_vector({0x1p-24f})}};
    const Array c = vecadd().gold(vecadd_case(1), inputs).at("C");
    CHECK(c.type == DType::f64);
    CHECK(c.value(0) == 1.0 + 0x1p-24);
  }
}

TEST_CASE("vecadd_grader::work") {
  const Work work = vecadd().work("vecadd", Params{{"n", 1000}});
  CHECK(work.bytes == 12000.0);
  CHECK(work.flops == 0.0);
  CHECK(work.rate_unit == "GB/s");
}

TEST_CASE("vecadd_grader::spec cases") {
  // Every case the spec declares, hidden ones included, can be generated and judged.
  auto spec = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments/vecadd/assignment.yaml");
  REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
  for (const Case& c : expand_cases(*spec, CourseSecret("12345"))) {
    CAPTURE(c.id);
    const CaseData data = generate(c);
    const ArraySet expected = vecadd().gold(c, data.inputs);
    CHECK(expected.at("C").dims == data.outputs.at("C").dims);
  }
}

TEST_CASE("vecadd_grader::mistakes") {
  using testing::explanation_of;
  using testing::named_mistake;
  const Case c = vecadd_case(1000);
  const CaseData data = generate(c);
  /// C[i] = combine(A[i], B[i]) in float, as a kernel computes it.
  const auto computed = [&](auto combine) {
    Array out = make_array(DType::f32, {1000});
    for (std::int64_t i = 0; i < 1000; ++i)
      out.data<float>()[i] = combine(data.inputs.at("A").data<float>()[i], data.inputs.at("B").data<float>()[i]);
    return ArraySet{{"C", std::move(out)}};
  };
  CHECK(named_mistake(vecadd(), c, data.inputs, computed([](float a, float b) { return a + b; })) == "");
  CHECK(named_mistake(vecadd(), c, data.inputs, computed([](float a, float) { return a + a; })) ==
        explanation_of(vecadd(), "A read twice"));
  CHECK(named_mistake(vecadd(), c, data.inputs, computed([](float, float b) { return b + b; })) ==
        explanation_of(vecadd(), "B read twice"));
  CHECK(named_mistake(vecadd(), c, data.inputs, computed([](float a, float b) { return a * b; })) ==
        explanation_of(vecadd(), "product"));
  CHECK(named_mistake(vecadd(), c, data.inputs, computed([](float a, float b) { return a - b; })) == "");
}

}  // namespace cugrade
