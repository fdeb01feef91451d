// assignment.yaml's allowed_libraries: known names only, each once; the table they come from.
#include "spec/library_parser.hpp"

#include <doctest/doctest.h>

#include "spec/libraries.hpp"

using namespace cugrade;
using Lines = std::vector<std::string>;

namespace {

// parse_allowed_libraries over the YAML `text`, as if it were the value of `allowed_libraries:`.
std::vector<std::string> libraries_of(const std::string& text, Diagnostics& diags) {
  const YAML::Node value = YAML::Load(text);
  return parse_allowed_libraries(Field{"'allowed_libraries'", value, value}, diags);
}

}  // namespace

TEST_CASE("spec::parse_allowed_libraries") {
  Diagnostics diags("t.yaml");
  SUBCASE("known names, in order") {
    CHECK(libraries_of("[cublas, cufft]", diags) == Lines{"cublas", "cufft"});
    CHECK(diags.lines() == Lines{});
  }
  SUBCASE("absent: none") {
    const YAML::Node absent = YAML::Load("{}")["allowed_libraries"];
    CHECK(parse_allowed_libraries(Field{"'allowed_libraries'", absent, absent}, diags).empty());
    CHECK(diags.lines() == Lines{});
  }
  SUBCASE("an unknown name, a name twice, not a list") {
    CHECK(libraries_of("[cublass, cublas, cublas]", diags) == Lines{"cublas"});
    const Lines lines = diags.lines();
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].starts_with("t.yaml:1:2: unknown library 'cublass' in 'allowed_libraries'; did you mean 'cublas'?"));
    CHECK(lines[1] == "t.yaml:1:19: library 'cublas' is listed twice in 'allowed_libraries'");
    Diagnostics other("t.yaml");
    libraries_of("cublas", other);
    CHECK(other.lines().size() == 1);
  }
}

TEST_CASE("spec::optional_libraries") {
  REQUIRE(find_optional_library("cublas") != nullptr);
  CHECK(in_library_api(*find_optional_library("cublas"), "cublasSgemm_v2"));
  CHECK(in_library_api(*find_optional_library("cuda_driver"), "cuLaunchKernel"));
  CHECK_FALSE(in_library_api(*find_optional_library("cuda_driver"), "cudaMalloc"));
  CHECK_FALSE(in_library_api(*find_optional_library("cublas"), "cublas"));
  CHECK(find_optional_library("dl") == nullptr);  // dlopen is never allowed
}
