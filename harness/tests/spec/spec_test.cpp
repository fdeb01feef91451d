#include "spec/spec.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("spec::Spec::find_step") {
  Spec spec;
  spec.steps = {Step{.name = "naive", .entry = "matmul_naive"},
                Step{.name = "tiled", .entry = "matmul_tiled"}};
  SUBCASE("a declared step") {
    REQUIRE(spec.find_step("tiled") != nullptr);
    CHECK(spec.find_step("tiled")->entry == "matmul_tiled");
  }
  SUBCASE("an unknown step, including one differing only in case") {
    CHECK(spec.find_step("Tiled") == nullptr);
    CHECK(spec.find_step("") == nullptr);
  }
}

TEST_CASE("spec::params_to_string") {
  SUBCASE("names in map order, comma separated") {
    CHECK(params_to_string({{"M", 65}, {"N", 33}, {"K", 47}}) == "K=47,M=65,N=33");
  }
  SUBCASE("one parameter") { CHECK(params_to_string({{"N", 0}}) == "N=0"); }
  SUBCASE("no parameters") { CHECK(params_to_string({}) == ""); }
}
