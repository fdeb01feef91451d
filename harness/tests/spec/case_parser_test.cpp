#include <doctest/doctest.h>

#include "spec/spec_parser.hpp"

using namespace cugrade;

namespace {

// parse_params over the flow map `text`, as if it were the value of `sizes` item 1.
std::optional<Params> params_of(const std::string& text, Diagnostics& diags) {
  const YAML::Node value = YAML::Load(text);
  return parse_params(Field{"item 1 of 'sizes'", value, value}, "size 1 of case group 1", diags);
}

}  // namespace

TEST_CASE("spec::parse_params") {
  Diagnostics diags("t.yaml");
  SUBCASE("names to integers") {
    CHECK(params_of("{M: 1, N: 1, K: 9223372036854775807}", diags) ==
          Params{{"M", 1}, {"N", 1}, {"K", 9223372036854775807}});
    CHECK(diags.empty());
  }
  SUBCASE("a size of 0 is no case: refused") {
    CHECK(params_of("{M: 65, N: 0}", diags) == std::nullopt);
    CHECK(diags.lines() == std::vector<std::string>{"t.yaml:1:12: 'N' must be >= 1, not 0"});
  }
  SUBCASE("a product of the sizes up to 2^63 - 1, and not past it") {
    CHECK(params_of("{M: 4294967296, N: 2147483647}", diags).has_value());
    CHECK(diags.empty());
    CHECK(params_of("{M: 4294967296, N: 4294967296, K: 1}", diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{"t.yaml:1:1: size 1 of case group 1 is too large: the product "
                                   "of its parameters (K=1,M=4294967296,N=4294967296) does not "
                                   "fit in 64 bits"});
  }
  SUBCASE("an empty map") {
    CHECK(params_of("{}", diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{
              "t.yaml:1:1: size 1 of case group 1 must name at least one parameter"});
  }
  SUBCASE("a name given twice, a name that is not an identifier, a value past int64") {
    CHECK(params_of("{N: 1, N: 2, M-1: 3, K: 9223372036854775808}", diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{
              "t.yaml:1:8: parameter 'N' is given twice in size 1 of case group 1",
              "t.yaml:1:14: parameter names in size 1 of case group 1 must be identifiers, "
              "not 'M-1'",
              "t.yaml:1:25: 'K' is too large: 9223372036854775808"});
  }
  SUBCASE("not a map") {
    CHECK(params_of("[1, 2]", diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{"t.yaml:1:1: item 1 of 'sizes' must be a map, not a sequence"});
  }
}

TEST_CASE("spec::parse_performance") {
  Diagnostics diags("t.yaml");
  Step naive{.name = "naive", .entry = "vec_add"};
  Step naive_f64{.name = "naive_f64", .entry = "vec_add_f64", .reference_only = true};
  const std::vector<Step> steps{naive, naive_f64};
  auto targets_of = [&](const std::string& text) {
    const YAML::Node value = YAML::Load(text);
    return parse_performance(Field{"'performance'", value, value}, steps, diags);
  };

  SUBCASE("a reference-only step may be the reference a student's step is timed against") {
    const auto targets = targets_of("[{step: naive, reference: naive_f64, params: {N: 8}, points: 1}]");
    REQUIRE(targets.size() == 1);
    CHECK(targets[0].reference == "naive_f64");
    CHECK(diags.lines() == std::vector<std::string>{});
  }
  SUBCASE("points past a million are no grade: refused (enough of 1e308 made the score inf)") {
    targets_of("[{step: naive, reference: naive, params: {N: 8}, points: 1e308}]");
    CHECK(diags.lines() == std::vector<std::string>{"t.yaml:1:58: 'points' must be at most 1e+06, not 1e308"});
  }
  SUBCASE("but never the student's step itself") {
    targets_of("[{step: naive_f64, reference: naive, params: {N: 8}, points: 1}]");
    CHECK(diags.lines() ==
          std::vector<std::string>{"t.yaml:1:9: step 'naive_f64' of performance target 1 is reference-only: "
                                   "students do not write it, so it cannot be timed as theirs"});
  }
}

TEST_CASE("spec::parse_cases: sanitize") {
  Diagnostics diags("t.yaml");
  const std::vector<Step> steps{Step{.name = "naive", .entry = "vec_add"}};
  auto groups_of = [&](const std::string& text) {
    const YAML::Node value = YAML::Load(text);
    return parse_cases(Field{"'cases'", value, value}, steps, diags);
  };
  SUBCASE("a case's points past a million are refused") {
    groups_of("[{sizes: [{N: 1}], points: 1e308}]");
    CHECK(diags.lines() == std::vector<std::string>{"t.yaml:1:28: 'points' must be at most 1e+06, not 1e308"});
  }
  SUBCASE("visible groups are sanitized unless they say otherwise, hidden ones only when they say so") {
    const auto groups = groups_of(
        "[{sizes: [{N: 1}]}, {sizes: [{N: 2}], sanitize: false}, {sizes: [{N: 3}], visibility: hidden},"
        " {sizes: [{N: 4}], visibility: hidden, sanitize: true}]");
    REQUIRE(groups.size() == 4);
    CHECK(groups[0].sanitize);
    CHECK_FALSE(groups[1].sanitize);
    CHECK_FALSE(groups[2].sanitize);
    CHECK(groups[3].sanitize);
    CHECK(diags.empty());
  }
  SUBCASE("not a boolean") {
    groups_of("[{sizes: [{N: 1}], sanitize: yes please}]");
    REQUIRE(diags.lines().size() == 1);
    CHECK(diags.lines()[0].find("t.yaml:1:30:") == 0);
  }
}
