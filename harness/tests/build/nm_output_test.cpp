// Reading nm listings: defined and undefined symbols, demangled names, qualified names.
#include "build/nm_output.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "build/test_data.hpp"

using namespace cugrade;
using cugrade::test::build_sample;

TEST_CASE("build::parse_nm_output") {
  const auto symbols = parse_nm_output(
      "0000000000000010 T _Z6vecAddPKfS0_Pfi\n"
      "                 U cudaMalloc\n"
      "\n"
      "cudart_static.o:\n"
      "0000000000000000 V DW.ref.__gxx_personality_v0\n"
      "00000000000001b2 T clock_gettime@GLIBC_2.17\n"
      "                 w __gmon_start__\n"
      "garbage\n");
  REQUIRE(symbols.size() == 5);
  CHECK(symbols[0].type == 'T');
  CHECK(symbols[0].name == "_Z6vecAddPKfS0_Pfi");
  CHECK(symbols[0].demangled == "vecAdd(float const*, float const*, float*, int)");
  CHECK(symbols[0].defined());
  CHECK(symbols[1].name == "cudaMalloc");
  CHECK_FALSE(symbols[1].defined());
  CHECK(symbols[2].weak());
  CHECK(symbols[3].name == "clock_gettime@GLIBC_2.17");
  CHECK_FALSE(symbols[4].defined());
  CHECK(symbols[4].global());
}

TEST_CASE("build::demangle") {
  CHECK(demangle("_ZNSt6chrono3_V212steady_clock3nowEv") == "std::chrono::_V2::steady_clock::now()");
  CHECK(demangle("fwrite") == "fwrite");
  CHECK(demangle("_Znotmangled") == "_Znotmangled");
}

TEST_CASE("build::qualified_name") {
  CHECK(qualified_name("vecAdd(float const*, float const*, float*, int)") == "vecAdd");
  CHECK(qualified_name("void cugrade::f<int>(int)") == "cugrade::f");
  CHECK(qualified_name("vtable for cugrade::Grader") == "cugrade::Grader");
  CHECK(qualified_name("std::vector<cugrade::Call, std::allocator<cugrade::Call> >::clear()") ==
        "std::vector::clear");
}

TEST_CASE("build::parse_nm_output on a real nvcc object") {
  const auto symbols = parse_nm_output(build_sample("nm_clean_object.txt"));
  CHECK(symbols.size() > 10);
  CHECK(std::any_of(symbols.begin(), symbols.end(), [](const Symbol& s) {
    return s.demangled == "vecAdd(float const*, float const*, float*, int)" && s.type == 'T';
  }));
}
