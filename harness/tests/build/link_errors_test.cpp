// Linker errors (samples in harness/tests/data/build/) and the sentences made of them.
#include "build/link_errors.hpp"

#include <doctest/doctest.h>

#include "build/test_data.hpp"

using namespace cugrade;
using cugrade::test::build_sample;

namespace {

const std::string matmul_interface =
    "void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K);\n"
    "void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K);\n";

}  // namespace

TEST_CASE("build::parse_link_errors") {
  SUBCASE("undefined references, each once, and a multiple definition") {
    const LinkErrors errors = parse_link_errors(build_sample("link_missing_and_duplicate.txt"));
    CHECK(errors.undefined ==
          std::vector<std::string>{
              "matmul_tiled(float const*, float const*, float*, int, int, int)"});
    CHECK(errors.multiple == std::vector<std::string>{"scale(int)"});
    CHECK(errors.missing_files.empty());
  }
  SUBCASE("entry points and a helper the student never wrote") {
    const LinkErrors errors = parse_link_errors(build_sample("link_missing_entry_points.txt"));
    CHECK(errors.undefined ==
          std::vector<std::string>{
              "tile_sum(float const*, int)",
              "matmul_naive(float const*, float const*, float*, int, int, int)",
              "matmul_tiled(float const*, float const*, float*, int, int, int)"});
    CHECK(errors.multiple.empty());
  }
  SUBCASE("a runner library that does not exist") {
    const LinkErrors errors = parse_link_errors(build_sample("link_missing_runner_library.txt"));
    CHECK(errors.missing_files == std::vector<std::string>{"/course/missing/librunner.a"});
    CHECK(errors.undefined.empty());
  }
  SUBCASE("GNU ld's cannot find") {
    const LinkErrors errors =
        parse_link_errors("/usr/bin/ld: cannot find /opt/librunner.a: No such file or directory\n");
    CHECK(errors.missing_files == std::vector<std::string>{"/opt/librunner.a"});
  }
}

TEST_CASE("build::abbreviate_signature") {
  CHECK(abbreviate_signature("matmul_tiled(float const*, float const*, float*, int, int, int)") ==
        "matmul_tiled(float const*, ...)");
  CHECK(abbreviate_signature("scale(int)") == "scale(int)");
  CHECK(abbreviate_signature("reset()") == "reset()");
  CHECK(abbreviate_signature("f(std::map<int, float> const&, int)") ==
        "f(std::map<int, float> const&, ...)");
  CHECK(abbreviate_signature("counter") == "counter");
}

TEST_CASE("build::describe_link_errors") {
  SUBCASE("one missing entry point") {
    LinkErrors errors;
    errors.undefined = {"matmul_tiled(float const*, float const*, float*, int, int, int)"};
    CHECK(describe_link_errors(errors, matmul_interface) ==
          "your file does not define matmul_tiled(float const*, ...), which interface.cuh "
          "declares: write this function (or keep the template's stub)");
  }
  SUBCASE("two missing entry points and an unwritten helper") {
    const LinkErrors errors = parse_link_errors(build_sample("link_missing_entry_points.txt"));
    CHECK(describe_link_errors(errors, matmul_interface) ==
          "your file does not define matmul_naive(float const*, ...) and matmul_tiled(float "
          "const*, ...), which interface.cuh declares: write these functions (or keep the "
          "template's stubs); your file calls tile_sum(float const*, ...) but nothing defines it: "
          "write the missing definition or remove the call");
  }
  SUBCASE("a name defined twice") {
    LinkErrors errors;
    errors.multiple = {"scale(int)"};
    CHECK(describe_link_errors(errors, matmul_interface) ==
          "scale(int) is defined more than once (in your file and in the runner, or in two of "
          "your files): rename your definition or declare it static");
  }
  SUBCASE("without interface.cuh every missing name is taken for an entry point") {
    LinkErrors errors;
    errors.undefined = {"tile_sum(float const*, int)"};
    CHECK(describe_link_errors(errors, "").starts_with("your file does not define tile_sum("));
  }
}
