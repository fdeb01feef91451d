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
    CHECK(params_of("{M: 65, N: 0, K: 9223372036854775807}", diags) ==
          Params{{"M", 65}, {"N", 0}, {"K", 9223372036854775807}});
    CHECK(diags.empty());
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
