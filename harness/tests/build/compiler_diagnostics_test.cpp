// Parsing real nvcc output (samples in harness/tests/data/build/).
#include "build/compiler_diagnostics.hpp"

#include <doctest/doctest.h>

#include "build/test_data.hpp"

using namespace cugrade;
using cugrade::test::build_sample;

namespace {

const DiagnosticPaths vecadd_paths{
    {"/course/submissions/alice/vecadd.cu", "/course/submissions/alice/vecadd2.cu",
     "/course/submissions/alice/vecadd3.cu"},
    "/course/assignments/vecadd"};

}  // namespace

TEST_CASE("build::parse_compiler_diagnostics") {
  SUBCASE("EDG errors and a host-compiler warning, by the student's file name") {
    const auto diagnostics =
        parse_compiler_diagnostics(build_sample("compile_undefined_identifier.txt"), vecadd_paths);
    REQUIRE(diagnostics.size() == 3);
    CHECK(diagnostics[0].file == "vecadd.cu");
    CHECK(diagnostics[0].line == 2);
    CHECK(diagnostics[0].column == 2);
    CHECK(diagnostics[0].severity == "warning");
    CHECK(diagnostics[0].message == "#warning \"remember to remove the debug output\" [-Wcpp]");
    CHECK(diagnostics[1].file == "vecadd.cu");
    CHECK(diagnostics[1].line == 7);
    CHECK(diagnostics[1].column == 0);
    CHECK(diagnostics[1].severity == "error");
    CHECK(diagnostics[1].message == "identifier \"j\" is undefined");
    CHECK(diagnostics[2].line == 12);
    CHECK(diagnostics[2].message == "expected a \";\"");
  }

  SUBCASE("a fatal error of the preprocessor is an error") {
    const auto diagnostics =
        parse_compiler_diagnostics(build_sample("compile_missing_header.txt"), vecadd_paths);
    REQUIRE(diagnostics.size() == 1);
    CHECK(describe(diagnostics[0]) == "vecadd2.cu:2:10: helpers.cuh: No such file or directory");
    CHECK(diagnostics[0].severity == "error");
  }

  SUBCASE("an error inside the assignment's header is shown relative to the assignment") {
    const auto diagnostics =
        parse_compiler_diagnostics(build_sample("compile_error_in_interface.txt"), vecadd_paths);
    REQUIRE(diagnostics.size() == 1);
    CHECK(describe(diagnostics[0]) == "interface.cuh:3: expected an identifier");
  }

  SUBCASE("EDG warning numbers are dropped; duplicates of the two passes appear once") {
    const std::string output =
        "/w/a.cu:1:2: warning: #warning \"x\" [-Wcpp]\n"
        "/w/a.cu:1:2: warning: #warning \"x\" [-Wcpp]\n"
        "/w/a.cu(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "/w/a.cu(3): catastrophic error: cannot open source file \"x.h\"\n";
    const auto diagnostics = parse_compiler_diagnostics(output, {{"/w/a.cu"}, "/a"});
    REQUIRE(diagnostics.size() == 3);
    CHECK(describe(diagnostics[1]) ==
          "a.cu:2: variable \"unused\" was declared but never referenced");
    CHECK(diagnostics[1].severity == "warning");
    CHECK(diagnostics[2].severity == "error");
  }

  SUBCASE("paths outside the submission and the assignment are kept") {
    const auto diagnostics = parse_compiler_diagnostics(
        "/usr/include/c++/12/bits/stl_vector.h(100): error: something\n", vecadd_paths);
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].file == "/usr/include/c++/12/bits/stl_vector.h");
  }

  SUBCASE("staged copies are shown by the student's names") {
    DiagnosticPaths staged{{}, {}, {{"src/submission_0.cu", "vec add.cu"}, {"src/common/util.cuh", "common/util.cuh"}}};
    const auto diagnostics = parse_compiler_diagnostics(
        "src/submission_0.cu(7): error: identifier \"j\" is undefined\n"
        "src/common/util.cuh:3:1: error: expected ';'\n",
        staged);
    REQUIRE(diagnostics.size() == 2);
    CHECK(describe(diagnostics[0]) == "vec add.cu:7: identifier \"j\" is undefined");
    CHECK(diagnostics[1].file == "common/util.cuh");
  }

  SUBCASE("the assembler's errors (inline asm), by the student's file name") {
    DiagnosticPaths staged{{}, {}, {{"src/submission_0.cu", "mine.cu"}}};
    const auto diagnostics = parse_compiler_diagnostics(
        "/tmp/ccQ1.s: Assembler messages:\n"
        "src/submission_0.cu:5: Error: no such instruction: `mov.u32 %edx,%laneid'\n"
        "src/submission_0.cu:9: Warning: ignoring changed section attributes\n",
        staged);
    REQUIRE(diagnostics.size() == 2);
    CHECK(describe(diagnostics[0]) == "mine.cu:5: the assembler: no such instruction: `mov.u32 %edx,%laneid'");
    CHECK(diagnostics[0].severity == "error");
    CHECK(diagnostics[1].severity == "warning");
  }

  SUBCASE("keeps at most the limit") {
    std::string output;
    for (int i = 1; i <= 30; ++i) output += "/w/a.cu(" + std::to_string(i) + "): error: e\n";
    CHECK(parse_compiler_diagnostics(output, {{"/w/a.cu"}, "/a"}).size() == 10);
    CHECK(parse_compiler_diagnostics(output, {{"/w/a.cu"}, "/a"}, 25).size() == 25);
  }

  SUBCASE("lines that are not diagnostics are skipped") {
    CHECK(parse_compiler_diagnostics(build_sample("nvcc_fatal_arch.txt"), vecadd_paths).empty());
    CHECK(parse_compiler_diagnostics("  if (i < n) c[i] = a[i] + b[j];\n  ^\nnote: see (1): x\n",
                                     vecadd_paths)
              .empty());
  }
}
