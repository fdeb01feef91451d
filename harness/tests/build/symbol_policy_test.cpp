// The symbol policy on real nm output (samples in harness/tests/data/build/).
#include "build/symbol_policy.hpp"

#include <doctest/doctest.h>

#include "build/test_data.hpp"

using namespace cugrade;
using cugrade::test::build_sample;

TEST_CASE("build::parse_defined_symbols") {
  const auto symbols = parse_defined_symbols(
      "0000000000000140 T cudaHelper(int)\n"
      "0000000000000000 t vecadd_kernel(float const*, int) [clone .cold]\n"
      "garbage\n"
      "0000000000000000 D cugrade::hack\n");
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].type == 'T');
  CHECK(symbols[0].name == "cudaHelper(int)");
  CHECK(symbols[1].type == 't');
  CHECK(symbols[1].name == "vecadd_kernel(float const*, int) [clone .cold]");
  CHECK(symbols[2].name == "cugrade::hack");
}

TEST_CASE("build::find_forbidden_symbols") {
  SUBCASE("a real object defining main, a CUDA API name and a harness namespace") {
    const auto violations =
        find_forbidden_symbols(parse_defined_symbols(build_sample("nm_forbidden_definitions.txt")));
    REQUIRE(violations.size() == 3);
    CHECK(violations[0].symbol == "cugrade::hack");
    CHECK(violations[0].reason == "namespace cugrade belongs to the harness");
    CHECK(violations[1].symbol == "cudaEventElapsedTime_v2");
    CHECK(violations[2].symbol == "main");
  }

  SUBCASE("a real object with only allowed definitions") {
    CHECK(find_forbidden_symbols(parse_defined_symbols(build_sample("nm_allowed_definitions.txt")))
              .empty());
  }
}

TEST_CASE("build::forbidden_reason") {
  auto refused = [](char type, const std::string& name) {
    return forbidden_reason(DefinedSymbol{type, name}).has_value();
  };
  SUBCASE("reserved names") {
    for (const char* name :
         {"main", "exit", "_exit", "abort", "clock_gettime", "gettimeofday", "time", "dlsym"}) {
      CHECK_MESSAGE(refused('T', name), name);
    }
    CHECK(*forbidden_reason({'T', "clock_gettime"}) ==
          "it would replace the clock the runner times kernels with");
  }
  SUBCASE("the CUDA runtime and driver API, as C functions") {
    CHECK(refused('T', "cudaMalloc"));
    CHECK(refused('T', "cudaEventElapsedTime"));
    CHECK(refused('W', "cuLaunchKernel"));
    CHECK(refused('T', "cuMemAlloc_v2"));
  }
  SUBCASE("wrap and real prefixes") {
    CHECK(refused('T', "__wrap_cudaLaunchKernel"));
    CHECK(refused('T', "__real_cudaLaunchKernel"));
  }
  SUBCASE("harness and reference namespaces, however nm spells them") {
    CHECK(refused('T', "cugrade::adapter_steps()"));
    CHECK(refused('W', "void cugrade::detail::f<int>(int)"));
    CHECK(refused('V', "vtable for cugrade::Grader"));
    CHECK(refused(
        'T', "cugrade_reference::matmul_tiled(float const*, float const*, float*, int, int, int)"));
  }
  SUBCASE("names that only look alike are allowed") {
    CHECK_FALSE(refused('T', "cudaHelper(int)"));  // C++: mangled, cannot interpose
    CHECK_FALSE(refused('B', "cuA"));              // a variable, not a function
    CHECK_FALSE(refused('T', "cuda_add"));         // no upper case after the prefix
    CHECK_FALSE(refused('T', "cute"));
    CHECK_FALSE(refused('T', "exit_early(int)"));
    CHECK_FALSE(refused('T', "student::main"));
    CHECK_FALSE(refused('T', "run(cugrade::Call const&)"));  // uses a harness type, defines none
    CHECK_FALSE(refused('W', "std::map<int, cugrade::Call>::clear()"));
    CHECK_FALSE(refused('T', "mycugrade::f()"));
  }
  SUBCASE("local symbols cannot replace anything") {
    CHECK_FALSE(refused('t', "main"));
    CHECK_FALSE(refused('t', "cudaMalloc"));
    CHECK_FALSE(refused('d', "cugrade::x"));
  }
}
