// The grader of assignment matmul (graders/matmul/grader.cpp): what the harness relies on to
// judge a matrix product.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "graders/grader.hpp"
#include "mistake_fixture.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {
namespace {

const Grader& matmul() {
  const Grader* grader = find_grader("matmul");
  REQUIRE(grader != nullptr);
  return *grader;
}

Case matmul_case(std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed = 1,
                 const std::string& step = "naive") {
  Case c;
  c.step = step;
  c.params = {{"M", m}, {"N", n}, {"K", k}};
  c.id = step + "/" + params_to_string(c.params) + "/seed=" + std::to_string(seed);
  c.seed = seed;
  return c;
}

CaseData generate(const Case& c) {
  Rng rng(c.seed);
  return matmul().generate(c, rng);
}

Array f32_matrix(std::int64_t rows, std::int64_t cols, std::initializer_list<float> values) {
  REQUIRE(static_cast<std::int64_t>(values.size()) == rows * cols);
  Array array = make_array(DType::f32, {rows, cols});
  std::memcpy(array.bytes.data(), values.begin(), values.size() * sizeof(float));
  return array;
}

using Dims = std::vector<std::int64_t>;

/// C as an FP32 naive kernel computes it when it reads A[i][p] at a(i, p) and B[p][j] at b(p, j).
template <class AAt, class BAt>
ArraySet fp32_product(const CaseData& data, std::int64_t m, std::int64_t n, std::int64_t k, AAt a_at, BAt b_at) {
  const float* a = data.inputs.at("A").data<float>();
  const float* b = data.inputs.at("B").data<float>();
  Array c = make_array(DType::f32, {m, n});
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      float sum = 0.f;
      for (std::int64_t p = 0; p < k; ++p) sum += a[a_at(i, p)] * b[b_at(p, j)];
      c.data<float>()[i * n + j] = sum;
    }
  return ArraySet{{"C", std::move(c)}};
}

}  // namespace

TEST_CASE("matmul_grader::generate") {
  SUBCASE("the same seed gives the same bytes; another seed other inputs") {
    const CaseData first = generate(matmul_case(65, 33, 47, 3));
    const CaseData again = generate(matmul_case(65, 33, 47, 3));
    const CaseData other = generate(matmul_case(65, 33, 47, 4));
    for (const char* name : {"A", "B"}) {
      CHECK(first.inputs.at(name).bytes == again.inputs.at(name).bytes);
      CHECK(first.inputs.at(name).bytes != other.inputs.at(name).bytes);
    }
  }
  SUBCASE("A is M×K and B is K×N, f32 values in [-1, 1); the runner must produce C, M×N f32") {
    const CaseData data = generate(matmul_case(31, 97, 5));
    REQUIRE(data.inputs.size() == 2);
    CHECK(data.inputs.at("A").type == DType::f32);
    CHECK(data.inputs.at("A").dims == Dims{31, 5});
    CHECK(data.inputs.at("B").type == DType::f32);
    CHECK(data.inputs.at("B").dims == Dims{5, 97});
    for (const char* name : {"A", "B"})
      for (std::int64_t i = 0; i < data.inputs.at(name).size(); ++i) {
        CHECK(data.inputs.at(name).value(i) >= -1.0);
        CHECK(data.inputs.at(name).value(i) < 1.0);
      }
    REQUIRE(data.outputs.size() == 1);
    CHECK(data.outputs.at("C").type == DType::f32);
    CHECK(data.outputs.at("C").dims == Dims{31, 97});
  }
  SUBCASE("a double-precision step (name ending in _f64): f64 inputs and output, full mantissas") {
    const CaseData data = generate(matmul_case(31, 97, 5, 1, "tiled_f64"));
    CHECK(data.inputs.at("A").type == DType::f64);
    CHECK(data.inputs.at("A").dims == Dims{31, 5});
    CHECK(data.inputs.at("B").type == DType::f64);
    CHECK(data.inputs.at("B").dims == Dims{5, 97});
    CHECK(data.outputs.at("C").type == DType::f64);
    CHECK(data.outputs.at("C").dims == Dims{31, 97});
    bool beyond_float = false;
    for (std::int64_t i = 0; i < data.inputs.at("A").size(); ++i) {
      const double v = data.inputs.at("A").value(i);
      beyond_float = beyond_float || static_cast<double>(static_cast<float>(v)) != v;
    }
    CHECK(beyond_float);  // a kernel that rounds the inputs to float must not pass
  }
  SUBCASE("a case without K is an authoring error") {
    Case no_k = matmul_case(2, 2, 2);
    no_k.params.erase("K");
    CHECK_THROWS_AS(generate(no_k), std::invalid_argument);
  }
}

TEST_CASE("matmul_grader::gold") {
  SUBCASE("a 2×3 times a 3×2 computed by hand") {
    const ArraySet inputs{{"A", f32_matrix(2, 3, {1, 2, 3, 4, 5, 6})},
                          {"B", f32_matrix(3, 2, {7, 8, 9, 10, 11, 12})}};
    const ArraySet expected = matmul().gold(matmul_case(2, 2, 3), inputs);
    REQUIRE(expected.size() == 1);
    const Array& c = expected.at("C");
    CHECK(c.dims == Dims{2, 2});
    CHECK(c.value(0) == 58.0);   // 1·7 + 2·9 + 3·11
    CHECK(c.value(1) == 64.0);   // 1·8 + 2·10 + 3·12
    CHECK(c.value(2) == 139.0);  // 4·7 + 5·9 + 6·11
    CHECK(c.value(3) == 154.0);  // 4·8 + 5·10 + 6·12
  }
  SUBCASE("the dot product is summed in double") {
    // 1 + 2^-24 − 1: float summation loses the middle term, the gold keeps it.
    const ArraySet inputs{{"A", f32_matrix(1, 3, {1, 1, 1})}, {"B", f32_matrix(3, 1, {1, 0x1p-24f, -1})}};
    const Array c = matmul().gold(matmul_case(1, 1, 3), inputs).at("C");
    CHECK(c.type == DType::f64);
    CHECK(c.value(0) == 0x1p-24);
  }
}

TEST_CASE("matmul_grader::gold of doubles") {
  SUBCASE("summed in double from double inputs, not from their float roundings") {
    Array a = make_array(DType::f64, {1, 2});
    Array b = make_array(DType::f64, {2, 1});
    a.data<double>()[0] = 1.0 + 0x1p-40;  // not a float
    a.data<double>()[1] = -1.0;
    b.data<double>()[0] = 1.0;
    b.data<double>()[1] = 1.0;
    const Array c = matmul().gold(matmul_case(1, 1, 2, 1, "naive_f64"), ArraySet{{"A", a}, {"B", b}}).at("C");
    CHECK(c.type == DType::f64);
    CHECK(c.value(0) == 0x1p-40);
  }
}

TEST_CASE("matmul_grader::work") {
  const Work work = matmul().work("tiled", Params{{"M", 2}, {"N", 3}, {"K", 4}});
  CHECK(work.bytes == 4.0 * (2 * 4 + 4 * 3 + 2 * 3));
  CHECK(work.flops == 2.0 * 2 * 3 * 4);
  CHECK(work.rate_unit == "TFLOP/s");
  CHECK(matmul().work("naive", Params{{"M", 2048}, {"N", 2048}, {"K", 2048}}).flops == 2.0 * 2048 * 2048 * 2048);
  // Doubles move 8 bytes an element; the arithmetic is the same.
  const Work f64 = matmul().work("coarse_f64", Params{{"M", 2}, {"N", 3}, {"K", 4}});
  CHECK(f64.bytes == 8.0 * (2 * 4 + 4 * 3 + 2 * 3));
  CHECK(f64.flops == work.flops);
}

TEST_CASE("matmul_grader::spec cases") {
  // Every case the spec declares, hidden ones included, can be generated and judged.
  auto spec = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments/matmul/assignment.yaml");
  REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
  for (const Case& c : expand_cases(*spec, CourseSecret("12345"))) {
    // The float steps share generator and gold, and so do the double ones; stretch has sizes of
    // its own.
    if (c.step != "naive" && c.step != "naive_f64" && c.step != "stretch") continue;
    CAPTURE(c.id);
    const CaseData data = generate(c);
    CHECK(matmul().gold(c, data.inputs).at("C").dims == data.outputs.at("C").dims);
  }
}

TEST_CASE("matmul_grader::mistakes") {
  using testing::explanation_of;
  using testing::named_mistake;
  const std::int64_t m = 65, n = 33, k = 47;
  const Case c = matmul_case(m, n, k);
  const CaseData data = generate(c);
  const auto a_right = [&](std::int64_t i, std::int64_t p) { return i * k + p; };
  const auto b_right = [&](std::int64_t p, std::int64_t j) { return p * n + j; };
  SUBCASE("a correct FP32 product is no mistake (the models are tried only on failed cases, but none is the gold)") {
    CHECK(named_mistake(matmul(), c, data.inputs, fp32_product(data, m, n, k, a_right, b_right)) == "");
  }
  SUBCASE("each operand read transposed, or with the other's leading dimension, is named") {
    const auto a_transposed = [&](std::int64_t i, std::int64_t p) { return p * m + i; };
    const auto b_transposed = [&](std::int64_t p, std::int64_t j) { return j * k + p; };
    const auto a_stride_n = [&](std::int64_t i, std::int64_t p) { return i * n + p; };
    CHECK(named_mistake(matmul(), c, data.inputs, fp32_product(data, m, n, k, a_transposed, b_right)) ==
          explanation_of(matmul(), "A transposed"));
    CHECK(named_mistake(matmul(), c, data.inputs, fp32_product(data, m, n, k, a_right, b_transposed)) ==
          explanation_of(matmul(), "B transposed"));
    CHECK(named_mistake(matmul(), c, data.inputs, fp32_product(data, m, n, k, a_stride_n, b_right)) ==
          explanation_of(matmul(), "A's rows N apart"));
    // B's rows K apart stay inside B only where (K−1)·K + N ≤ K·N: a wide case.
    const Case wide = matmul_case(31, 97, 5);
    const CaseData wide_data = generate(wide);
    const auto b_stride_k = [&](std::int64_t p, std::int64_t j) { return p * 5 + j; };
    const auto a_wide = [&](std::int64_t i, std::int64_t p) { return i * 5 + p; };
    CHECK(named_mistake(matmul(), wide, wide_data.inputs, fp32_product(wide_data, 31, 97, 5, a_wide, b_stride_k)) ==
          explanation_of(matmul(), "B's rows K apart"));
  }
  SUBCASE("a model that would read outside an operand, or is the gold at this size, gives nothing") {
    const MistakeModel* b_stride_k = nullptr;
    for (const MistakeModel& model : matmul().mistakes)
      if (model.name == "B's rows K apart") b_stride_k = &model;
    REQUIRE(b_stride_k != nullptr);
    CHECK(b_stride_k->gold(c, data.inputs).empty());  // (K−1)·K + N > K·N at 65×33×47
    const Case square = matmul_case(32, 32, 32);
    CHECK(b_stride_k->gold(square, generate(square).inputs).empty());
  }
  SUBCASE("an output that is wrong in another way is not named") {
    ArraySet off = fp32_product(data, m, n, k, a_right, b_right);
    for (std::int64_t i = 0; i < m * n; ++i) off.at("C").data<float>()[i] += 1.0f;
    CHECK(named_mistake(matmul(), c, data.inputs, off) == "");
  }
}

}  // namespace cugrade
