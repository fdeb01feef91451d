#include "spec/interface_scan.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("spec::called_or_declared_names") {
  SUBCASE("declarations, with or without a space before '('") {
    CHECK(called_or_declared_names("void a_b(int);\nvoid c2 (float*);\nint x;") ==
          std::vector<std::string>{"a_b", "c2"});
  }
  SUBCASE("names in comments are not declarations") {
    CHECK(called_or_declared_names("// old_kernel(int)\n/* other(\n) */ void k();") ==
          std::vector<std::string>{"k"});
  }
  SUBCASE("a name is listed once; a number suffix is not a name") {
    CHECK(called_or_declared_names("f(1e5f); f(2); g(3ul);") == std::vector<std::string>{"f", "g"});
  }
  SUBCASE("a name that only contains an entry name is a different name") {
    CHECK(called_or_declared_names("void my_matmul(int);") ==
          std::vector<std::string>{"my_matmul"});
  }
}
