// What a link's libraries define: nm listings merged, versions ignored, weakness and origin kept;
// and the real system libraries, listed once.
#include "build/library_symbols.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "build/toolchain.hpp"

using namespace cugrade;

TEST_CASE("build::add_library_listing") {
  LibrarySymbols symbols;
  add_library_listing(symbols, {"libc.so.6", "the C library", false},
                      "00000000000cf420 T clock_gettime@@GLIBC_2.17\n"
                      "0000000000000000 A GLIBC_2.17\n"
                      "                 U free@GLIBC_2.2.5\n"
                      "0000000000000010 t local_helper\n");
  add_library_listing(symbols, {"librunner.a", "the runner library", true},
                      "\nrunner_main.o:\n0000000000000000 W _ZN4dim3C1Ejjj\n0000000000000000 T main\n");
  add_library_listing(symbols, {"libstdc++.so.6", "the C++ standard library", false},
                      "0000000000000000 W _ZN4dim3C1Ejjj\n");
  REQUIRE(symbols.find("clock_gettime") != nullptr);
  CHECK(symbols.find("clock_gettime@GLIBC_2.2.5") == symbols.find("clock_gettime"));
  CHECK(symbols.find("clock_gettime")->library == "the C library");
  CHECK_FALSE(symbols.find("clock_gettime")->weak);
  CHECK(symbols.find("GLIBC_2.17") == nullptr);
  CHECK(symbols.find("free") == nullptr);
  CHECK(symbols.find("local_helper") == nullptr);
  const LibraryDefinition* dim3 = symbols.find("_ZN4dim3C1Ejjj");
  REQUIRE(dim3 != nullptr);
  CHECK(dim3->weak);
  CHECK(dim3->in_harness);
  CHECK(dim3->in_system);
  CHECK(symbols.find("main")->in_harness);
  CHECK_FALSE(symbols.find("main")->in_system);
}

TEST_CASE("build::list_library_symbols of this machine's C and C++ libraries") {
  const auto libraries = system_link_libraries("g++", {});
  REQUIRE_MESSAGE(!libraries.empty(), "g++ -print-file-name found no library");
  const auto symbols = list_library_symbols(libraries);
  CHECK(symbols->unreadable.empty());
  for (const char* name : {"fwrite", "clock_gettime", "dlopen", "_ZNSt6chrono3_V212steady_clock3nowEv", "_Znwm",
                           "sqrtf", "_Unwind_Resume"})
    CHECK_MESSAGE(symbols->find(name) != nullptr, name);
  CHECK(list_library_symbols(libraries) == symbols);  // cached: the same listing
  const auto without_missing = list_library_symbols({{"/no/such/libx.so", "x", false}});
  CHECK(without_missing->defined.empty());
  CHECK(without_missing->unreadable.empty());
}
