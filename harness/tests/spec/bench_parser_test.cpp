#include <doctest/doctest.h>

#include <filesystem>

#include "spec/lint.hpp"
#include "spec/spec_parser.hpp"

using namespace cugrade;
using Lines = std::vector<std::string>;

namespace {

const std::vector<Step> kSteps = {Step{.name = "naive"}, Step{.name = "smem1"},
                                  Step{.name = "dgemm_like", .reference_only = true}};

// parse_bench over the YAML `text`, as if it were the value of the spec's `bench:` key.
std::vector<BenchTable> bench_of(const std::string& text, Diagnostics& diags) {
  const YAML::Node value = YAML::Load(text);
  return parse_bench(Field{"'bench'", value, value}, kSteps, diags);
}

}  // namespace

TEST_CASE("spec::parse_bench") {
  Diagnostics diags("t.yaml");

  SUBCASE("a table as the spec format shows it") {
    const auto tables = bench_of(R"(
- table: "float, N = 2048"
  lecture: "lecture 000: Tesla K40c, CUDA 6.0"
  params: {M: 2048, N: 2048, K: 2048}
  rate: true
  rows:
    - {step: naive, label: "Global", lecture: "134 ms"}
    - {step: smem1, label: "SMEM-1", lecture: "150 ms"}
)",
                                 diags);
    CHECK(diags.lines() == Lines{});
    REQUIRE(tables.size() == 1);
    const BenchTable& t = tables[0];
    CHECK(t.title == "float, N = 2048");
    CHECK(t.lecture == "lecture 000: Tesla K40c, CUDA 6.0");
    CHECK(t.params == Params{{"K", 2048}, {"M", 2048}, {"N", 2048}});
    CHECK(t.rate);
    CHECK(t.ceiling == BenchCeiling::by_unit);
    CHECK(t.where.line == 2);
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0].step == "naive");
    CHECK(t.rows[0].label == "Global");
    CHECK(t.rows[0].lecture == "134 ms");
    CHECK(t.rows[1].label == "SMEM-1");
    CHECK(t.rows[1].where.line == 8);
  }

  SUBCASE("defaults: the label is the step, no lecture figure, rate on; a reference-only step") {
    const auto tables = bench_of(R"(
- table: "double"
  params: {N: 64}
  rows: [{step: dgemm_like}]
)",
                                 diags);
    CHECK(diags.empty());
    REQUIRE(tables.size() == 1);
    CHECK(tables[0].lecture.empty());
    CHECK(tables[0].rate);
    REQUIRE(tables[0].rows.size() == 1);
    CHECK(tables[0].rows[0].label == "dgemm_like");
    CHECK(tables[0].rows[0].lecture.empty());
  }

  SUBCASE("rate: false and every ceiling") {
    const std::vector<std::pair<std::string, BenchCeiling>> names = {
        {"copy", BenchCeiling::copy},   {"read", BenchCeiling::read},
        {"sgemm", BenchCeiling::sgemm}, {"dgemm", BenchCeiling::dgemm},
        {"none", BenchCeiling::none}};
    for (const auto& [name, ceiling] : names) {
      const auto tables = bench_of("- {table: t, params: {N: 1}, rate: false, ceiling: " + name +
                                       ", rows: [{step: naive}]}",
                                   diags);
      REQUIRE(tables.size() == 1);
      CHECK_FALSE(tables[0].rate);
      CHECK(tables[0].ceiling == ceiling);
    }
    CHECK(diags.empty());
  }

  SUBCASE("not a list, an empty list") {
    CHECK(bench_of("{table: t}", diags).empty());
    CHECK(bench_of("[]", diags).empty());
    CHECK(diags.lines() ==
          Lines{"t.yaml:1:1: 'bench' must be a list, not a map",
                "t.yaml:1:1: 'bench' must not be empty; leave it out when there is no table"});
  }
}

TEST_CASE("spec::lint_spec_file (bench)") {
  // Every kind of problem a bench section can have, each at its line and column.
  const std::string p =
      (std::filesystem::path(CUGRADE_TEST_DATA) / "bench" / "bad_bench" / "assignment.yaml")
          .string();
  CHECK(lint_spec_file(p) ==
        Lines{p + ":13:11: 'rate' must be true or false, not 'yes'",
              p + ":14:14: 'ceiling' must be one of copy, read, sgemm, dgemm, none, not 'coppy'; "
                  "did you mean 'copy'?",
              p + ":17:16: unknown step 'paded' in row 2 of bench table 1; did you mean "
                  "'padded'? (steps: naive, padded)",
              p + ":18:9: step 'naive' is listed twice in bench table 1 (first at line 16)",
              p + ":20:32: 'cols' must be >= 1, not -1",
              p + ":22:9: a row of bench table 2 gives a lecture figure, but the table has no "
                  "'lecture' saying whose figures they are",
              p + ":22:46: unknown key 'colour' in row 1 of bench table 2",
              p + ":23:5: bench table '4000 × 4000' is listed twice (first at line 10)",
              p + ":25:11: 'rows' must not be empty in bench table 3",
              p + ":26:5: bench table 4 has no 'table'",
              p + ":26:5: bench table 4 has no 'params'",
              p + ":26:14: 'lecture' must not be empty in bench table 4",
              p + ":27:12: item 1 of 'rows' must be a map, not 'naive'"});
}
