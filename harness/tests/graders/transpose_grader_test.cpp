// The grader of assignment transpose (graders/transpose/grader.cpp): what the harness relies on
// to judge a transpose and its copy baseline.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "graders/grader.hpp"
#include "mistake_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {
namespace {

const Grader& transpose() {
  const Grader* grader = find_grader("transpose");
  REQUIRE(grader != nullptr);
  return *grader;
}

Case transpose_case(const std::string& step, std::int64_t rows, std::int64_t cols, std::uint64_t seed = 1) {
  Case c;
  c.step = step;
  c.params = {{"rows", rows}, {"cols", cols}};
  c.id = step + "/" + params_to_string(c.params) + "/seed=" + std::to_string(seed);
  c.seed = seed;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return transpose().generate(c, rng);
}

Array f32_matrix(std::int64_t rows, std::int64_t cols, std::initializer_list<float> values) {
  REQUIRE(static_cast<std::int64_t>(values.size()) == rows * cols);
  Array array = make_array(DType::f32, {rows, cols});
  std::memcpy(array.bytes.data(), values.begin(), values.size() * sizeof(float));
  return array;
}

using Dims = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("transpose_grader::generate") {
  SUBCASE("the same seed gives the same bytes; another seed other inputs") {
    const CaseData first = generate(transpose_case("padded", 33, 65, 3));
    const CaseData again = generate(transpose_case("padded", 33, 65, 3));
    const CaseData other = generate(transpose_case("padded", 33, 65, 4));
    CHECK(first.inputs.at("in").bytes == again.inputs.at("in").bytes);
    CHECK(first.inputs.at("in").bytes != other.inputs.at("in").bytes);
  }
  SUBCASE("in is rows×cols f32 in [-1, 1); a transpose must produce out, cols×rows f32") {
    const CaseData data = generate(transpose_case("naive", 100, 7));
    REQUIRE(data.inputs.size() == 1);
    const Array& in = data.inputs.at("in");
    CHECK(in.type == DType::f32);
    CHECK(in.dims == Dims{100, 7});
    for (std::int64_t i = 0; i < in.size(); ++i) {
      CHECK(in.value(i) >= -1.0);
      CHECK(in.value(i) < 1.0);
    }
    REQUIRE(data.outputs.size() == 1);
    CHECK(data.outputs.at("out").type == DType::f32);
    CHECK(data.outputs.at("out").dims == Dims{7, 100});
  }
  SUBCASE("the copy step's out keeps the shape of in") {
    CHECK(generate(transpose_case("copy", 100, 7)).outputs.at("out").dims == Dims{100, 7});
  }
  SUBCASE("the steps of one case see the same input, so their reports can be compared") {
    CHECK(generate(transpose_case("copy", 37, 1)).inputs.at("in").bytes ==
          generate(transpose_case("coalesced", 37, 1)).inputs.at("in").bytes);
  }
  SUBCASE("a case without cols, or with rows < 1, is an authoring error") {
    Case no_cols = transpose_case("naive", 2, 2);
    no_cols.params.erase("cols");
    CHECK_THROWS_AS(generate(no_cols), std::invalid_argument);
    CHECK_THROWS_AS(generate(transpose_case("naive", 0, 2)), std::invalid_argument);
  }
}

TEST_CASE("transpose_grader::gold") {
  const ArraySet inputs{{"in", f32_matrix(2, 3, {1, 2, 3, 4, 5, 6})}};
  SUBCASE("a 2×3 transposed by hand") {
    for (const char* step : {"naive", "coalesced", "padded"}) {
      CAPTURE(step);
      const ArraySet expected = transpose().gold(transpose_case(step, 2, 3), inputs);
      REQUIRE(expected.size() == 1);
      const Array& out = expected.at("out");
      CHECK(out.dims == Dims{3, 2});
      const double by_hand[] = {1, 4, 2, 5, 3, 6};
      for (std::int64_t i = 0; i < 6; ++i) CHECK(out.value(i) == by_hand[i]);
    }
  }
  SUBCASE("the copy step expects in unchanged") {
    const Array out = transpose().gold(transpose_case("copy", 2, 3), inputs).at("out");
    CHECK(out.dims == Dims{2, 3});
    for (std::int64_t i = 0; i < 6; ++i) CHECK(out.value(i) == static_cast<double>(i + 1));
  }
  SUBCASE("every float is kept exactly, also the smallest and the largest") {
    const ArraySet extremes{{"in", f32_matrix(1, 3, {0x1p-149f, -0x1.fffffep127f, 0x1.000002p0f})}};
    const Array out = transpose().gold(transpose_case("padded", 1, 3), extremes).at("out");
    CHECK(out.dims == Dims{3, 1});
    CHECK(out.value(0) == 0x1p-149);
    CHECK(out.value(1) == -0x1.fffffep127);
    CHECK(out.value(2) == 0x1.000002p0);
  }
}

TEST_CASE("transpose_grader::work") {
  const Work work = transpose().work("coalesced", Params{{"rows", 2}, {"cols", 3}});
  CHECK(work.bytes == 2.0 * 4.0 * 2 * 3);
  CHECK(work.flops == 0.0);
  CHECK(work.rate_unit == "GB/s");
  CHECK(transpose().work("copy", Params{{"rows", 8192}, {"cols", 8192}}).bytes == 8.0 * 8192 * 8192);
}

TEST_CASE("transpose_grader::spec cases") {
  // Every case the spec declares, hidden ones included, can be generated and judged.
  auto spec = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments/transpose/assignment.yaml");
  REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
  for (const Case& c : expand_cases(*spec, CourseSecret("12345"))) {
    CAPTURE(c.id);
    const CaseData data = generate(c);
    CHECK(transpose().gold(c, data.inputs).at("out").dims == data.outputs.at("out").dims);
  }
}

TEST_CASE("transpose_grader::mistakes") {
  using testing::explanation_of;
  using testing::named_mistake;
  /// `in` (rows×cols) stored at out[to(r, k)] in a cols×rows float array.
  const auto stored = [](const CaseData& data, std::int64_t rows, std::int64_t cols, auto to) {
    Array out = make_array(DType::f32, {cols, rows});
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t k = 0; k < cols; ++k) out.data<float>()[to(r, k)] = data.inputs.at("in").data<float>()[r * cols + k];
    return ArraySet{{"out", std::move(out)}};
  };
  SUBCASE("a plain copy, and a copy of 32×32 tiles moved but not transposed, are named; the transpose is not") {
    const Case c = transpose_case("padded", 64, 96);
    const CaseData data = generate(c);
    const auto transposed = [](std::int64_t r, std::int64_t k) { return k * 64 + r; };
    const auto copied = [](std::int64_t r, std::int64_t k) { return r * 96 + k; };
    // The tiled kernel's bug: tile[ty][tx] stored where tile[tx][ty] belongs.
    const auto tiles_only = [](std::int64_t r, std::int64_t k) {
      return (k / 32 * 32 + r % 32) * 64 + (r / 32 * 32 + k % 32);
    };
    CHECK(named_mistake(transpose(), c, data.inputs, stored(data, 64, 96, transposed)) == "");
    CHECK(named_mistake(transpose(), c, data.inputs, stored(data, 64, 96, copied)) == explanation_of(transpose(), "plain copy"));
    CHECK(named_mistake(transpose(), c, data.inputs, stored(data, 64, 96, tiles_only)) ==
          explanation_of(transpose(), "tile not transposed"));
  }
  SUBCASE("neither applies where it is the transpose itself, or to the copy step") {
    const Case row = transpose_case("naive", 1, 37);
    const CaseData data = generate(row);
    for (const MistakeModel& model : transpose().mistakes) CHECK(model.gold(row, data.inputs).empty());
    for (const MistakeModel& model : transpose().mistakes) CHECK_FALSE(applies_to(model, "copy"));
  }
}

}  // namespace cugrade
